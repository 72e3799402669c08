//go:build !linux

package replay

import "errors"

var errNoAffinity = errors.New("Go has no portable affinity API, and sched_setaffinity is Linux's")

func allowedCPUs() ([]int, error) { return nil, errNoAffinity }

func pinThread(int) error { return errNoAffinity }
