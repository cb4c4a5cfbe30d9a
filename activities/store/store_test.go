package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/webagent-dev/webagent/activities/store"
	"github.com/webagent-dev/webagent/internal/testenv"
)

func TestMinIO(t *testing.T) {
	_, st := testenv.MinIO(t)
	ctx := context.Background()
	for _, k := range []string{"runs/a/2.png", "runs/a/1.png", "runs/b/1.png"} {
		if err := st.Put(ctx, k, "image/png", []byte("data:"+k)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Get(ctx, "runs/a/1.png")
	if err != nil || string(got) != "data:runs/a/1.png" {
		t.Fatalf("get: %q %v", got, err)
	}
	keys, err := st.List(ctx, "runs/a/")
	if err != nil || len(keys) != 2 || keys[0] != "runs/a/1.png" {
		t.Fatalf("list: %v %v", keys, err)
	}
	if _, err := st.Get(ctx, "runs/none.png"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a missing key: want ErrNotFound, got %v", err)
	}
	// A store nobody serves fails at once, with the endpoint in the message.
	if _, err := store.Open(ctx, store.Config{Endpoint: "127.0.0.1:1", Bucket: "x"}); err == nil {
		t.Fatal("opening a store nobody serves should fail")
	}
}
