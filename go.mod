module github.com/reasonix/reasonix-desktop

go 1.26
