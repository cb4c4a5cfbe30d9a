package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// Memory is an object store in memory, with the Put and Get of the Store: for tests and
// simulations that run the activities without MinIO. The zero value is ready to use.
type Memory struct {
	mu   sync.Mutex
	objs map[string][]byte
}

// Put keeps a copy of data under key.
func (m *Memory) Put(_ context.Context, key, _ string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.objs == nil {
		m.objs = map[string][]byte{}
	}
	m.objs[key] = slices.Clone(data)
	return nil
}

// Get returns what key holds, or ErrNotFound.
func (m *Memory) Get(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.objs[key]
	if !ok {
		return nil, fmt.Errorf("get %s: %w", key, ErrNotFound)
	}
	return b, nil
}

// Keys are the keys that hold something, sorted.
func (m *Memory) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.objs))
	for k := range m.objs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
