// Package store keeps the run's large artefacts — screenshots, element lists, browser
// storage state — in S3-compatible object storage (MinIO), so that workflow history holds
// only their keys.
package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
	"github.com/minio/minio-go/v7/pkg/lifecycle"
)

// Config says where the object store is.
type Config struct {
	Endpoint  string // host:port
	AccessKey string
	SecretKey string
	Bucket    string
	UseSSL    bool
}

// MinIO is a bucket in an S3-compatible object store.
type MinIO struct {
	client *minio.Client
	bucket string
	// LifecycleErr says why the bucket's expiry rule for browser state could not be set.
	LifecycleErr error
}

// Open connects to the store and creates the bucket if it is missing.
func Open(ctx context.Context, cfg Config) (*MinIO, error) {
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure: cfg.UseSSL,
	})
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", cfg.Endpoint, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	// A server that has just started may answer before it is initialised: ask again.
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	for err != nil && strings.Contains(err.Error(), "not initialized") && ctx.Err() == nil {
		time.Sleep(250 * time.Millisecond)
		ok, err = c.BucketExists(ctx, cfg.Bucket)
	}
	if err != nil {
		return nil, fmt.Errorf("object store %s: bucket %s: %w (is MinIO running? `make up` starts it)", cfg.Endpoint, cfg.Bucket, err)
	}
	if !ok {
		if err := c.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{}); err != nil {
			var resp minio.ErrorResponse
			if !errors.As(err, &resp) || resp.Code != "BucketAlreadyOwnedByYou" {
				return nil, fmt.Errorf("create bucket %s: %w", cfg.Bucket, err)
			}
		}
	}
	m := &MinIO{client: c, bucket: cfg.Bucket}
	m.LifecycleErr = m.expireState(ctx)
	return m, nil
}

// Objects tagged with ExpireTag=ExpireValue are deleted by the bucket's lifecycle rule a
// day after they were written: a backstop for the browser state a run deletes at its end.
const (
	ExpireTag   = "webagent-kind"
	ExpireValue = "browser-state"
	expireRule  = "webagent-expire-browser-state"
)

// expireState adds the lifecycle rule that expires tagged objects, keeping the bucket's
// other rules.
func (m *MinIO) expireState(ctx context.Context) error {
	cfg, err := m.client.GetBucketLifecycle(ctx, m.bucket)
	if err != nil && minio.ToErrorResponse(err).Code != "NoSuchLifecycleConfiguration" {
		return fmt.Errorf("read the bucket's lifecycle: %w", err)
	}
	if cfg == nil {
		cfg = lifecycle.NewConfiguration()
	}
	for _, r := range cfg.Rules {
		if r.ID == expireRule {
			return nil
		}
	}
	cfg.Rules = append(cfg.Rules, lifecycle.Rule{
		ID: expireRule, Status: "Enabled",
		RuleFilter: lifecycle.Filter{Tag: lifecycle.Tag{Key: ExpireTag, Value: ExpireValue}},
		Expiration: lifecycle.Expiration{Days: 1},
	})
	if err := m.client.SetBucketLifecycle(ctx, m.bucket, cfg); err != nil {
		return fmt.Errorf("set the bucket's lifecycle: %w", err)
	}
	return nil
}

// PutExpiring stores data under key, tagged for the lifecycle rule that deletes it after
// a day.
func (m *MinIO) PutExpiring(ctx context.Context, key, contentType string, data []byte) error {
	_, err := m.client.PutObject(ctx, m.bucket, key, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{ContentType: contentType, UserTags: map[string]string{ExpireTag: ExpireValue}})
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// Delete removes every object under prefix.
func (m *MinIO) Delete(ctx context.Context, prefix string) error {
	keys, err := m.List(ctx, prefix)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := m.client.RemoveObject(ctx, m.bucket, k, minio.RemoveObjectOptions{}); err != nil {
			return fmt.Errorf("delete %s: %w", k, err)
		}
	}
	return nil
}

// Put stores data under key.
func (m *MinIO) Put(ctx context.Context, key, contentType string, data []byte) error {
	_, err := m.client.PutObject(ctx, m.bucket, key, bytes.NewReader(data), int64(len(data)),
		minio.PutObjectOptions{ContentType: contentType})
	if err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// ErrNotFound is returned by Get for a key that holds nothing.
var ErrNotFound = errors.New("object not found")

// Get reads the object under key.
func (m *MinIO) Get(ctx context.Context, key string) ([]byte, error) {
	obj, err := m.client.GetObject(ctx, m.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	defer obj.Close()
	data, err := io.ReadAll(obj)
	if err != nil {
		if minio.ToErrorResponse(err).Code == "NoSuchKey" {
			return nil, fmt.Errorf("get %s: %w", key, ErrNotFound)
		}
		return nil, fmt.Errorf("get %s: %w", key, err)
	}
	return data, nil
}

// List returns the keys under prefix, in lexical order.
func (m *MinIO) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	for obj := range m.client.ListObjects(ctx, m.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if obj.Err != nil {
			return nil, fmt.Errorf("list %s: %w", prefix, obj.Err)
		}
		keys = append(keys, obj.Key)
	}
	return keys, nil
}

// Link returns a URL that reads the object under key without credentials until ttl
// passes (a presigned GET).
func (m *MinIO) Link(ctx context.Context, key string, ttl time.Duration) (string, error) {
	u, err := m.client.PresignedGetObject(ctx, m.bucket, key, ttl, nil)
	if err != nil {
		return "", fmt.Errorf("link %s: %w", key, err)
	}
	return u.String(), nil
}
