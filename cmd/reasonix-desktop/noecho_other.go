//go:build !linux

package main

import "os"

// hideInput turns no echo off here (only Linux's terminal is handled): the
// prompt says the key shows as it is typed.
func hideInput(*os.File) (restore func(), ok bool) { return func() {}, false }
