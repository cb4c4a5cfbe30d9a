package driver

import (
	"sync/atomic"
	"time"
)

// turn serialises the activities that use a session's page, one at a time (a waiting
// activity gives up when its context ends), and says when the page was last used.
type turn struct {
	ch       chan struct{}
	lastUsed atomic.Int64
}

func (t *turn) touch() { t.lastUsed.Store(time.Now().UnixNano()) }
