//go:build probe

package driver

import (
	"time"

	"github.com/playwright-community/playwright-go"
)

func (s *Session) ProbeEval(js string) (any, error) { return s.page.Evaluate(js) }

func (s *Session) ProbeClick(name string) (time.Duration, error) {
	t0 := time.Now()
	err := s.page.GetByRole("button", playwright.PageGetByRoleOptions{Name: name}).Click(playwright.LocatorClickOptions{Timeout: playwright.Float(15000)})
	return time.Since(t0), err
}
