package testenv

import "syscall"

// ownGroup starts a process in a process group of its own, killed when the test binary
// dies.
func ownGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
