module github.com/reasonix/reasonix-desktop

go 1.26

require github.com/google/uuid v1.6.0
