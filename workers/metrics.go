package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"

	"github.com/webagent-dev/webagent/activities/browser/driver"
)

// Pool gauges, set from the pool itself every few seconds.
const (
	metricBrowsersOpen    = "webagent_browsers_open"    // runs' browsers this worker holds
	metricBrowsersMax     = "webagent_browsers_max"     // WEBAGENT_MAX_BROWSERS
	metricBrowsersWaiting = "webagent_browsers_waiting" // runs waiting in line for one here
)

// secondsBuckets are the bounds of every timer's histogram, in seconds: from a workflow
// task's milliseconds to a long step's minutes (OpenTelemetry's default bounds are for
// milliseconds).
var secondsBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}

// metricsEndpoint serves Prometheus's text format at http://ADDR/metrics
// (WEBAGENT_METRICS_ADDR): the SDK's metrics (task latencies, slots, polls, failures),
// the runs' own (workflows.Metric*) and the browser pool's. It returns the handler the
// Temporal client reports to, and the function that stops the endpoint.
func metricsEndpoint(addr string, log *slog.Logger) (client.MetricsHandler, func(), error) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithoutScopeInfo(), otelprom.WithoutTargetInfo())
	if err != nil {
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}
	view := sdkmetric.NewView(sdkmetric.Instrument{Kind: sdkmetric.InstrumentKindHistogram},
		sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: secondsBuckets}})
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp), sdkmetric.WithView(view))
	h := temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
		Meter: mp.Meter("webagent"), UseMonotonicCounters: true,
		OnError: func(err error) { log.Warn("a metric could not be recorded", "err", err) },
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("WEBAGENT_METRICS_ADDR=%s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("the metrics endpoint stopped", "err", err)
		}
	}()
	log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return h, func() {
		_ = srv.Close()
		_ = mp.Shutdown(context.Background())
	}, nil
}

// watchPool sets the pool's gauges every two seconds until ctx ends.
func watchPool(ctx context.Context, h client.MetricsHandler, pool *driver.Pool, max int) {
	open, waiting := h.Gauge(metricBrowsersOpen), h.Gauge(metricBrowsersWaiting)
	h.Gauge(metricBrowsersMax).Update(float64(max))
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		open.Update(float64(pool.Sessions()))
		waiting.Update(float64(pool.Waiting()))
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
