//go:build !linux

package testenv

import "syscall"

// ownGroup starts a process in a process group of its own (a killed test binary may leave
// it running on this system: there is no parent-death signal).
func ownGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
