# The two commands a fresh machine needs: `make demo` and `make test`.
SHELL := /bin/bash
DEMO_URL ?= http://127.0.0.1:$${DEMOAPP_PORT:-8090}/projects
DEMO_GOAL ?= Click "New project", type "Apollo" into "Project name", select "High" from "Priority", click "Create", then check that "Apollo" is visible

.PHONY: setup setup-test up down demo test test-checks test-go faults load noise heldout miniwob check vet build clean

## setup: install what the demo's stack needs and is missing (Go check, temporal CLI, MinIO, Weaviate, Chromium, Playwright driver)
setup:
	@deploy/setup.sh demo

## setup-test: install what the tests need besides: the linters and the applications the end-to-end tests drive
setup-test:
	@deploy/setup.sh test

## up: start the local stack in the background (Temporal + Web UI, MinIO, demo app, worker)
up: setup
	@deploy/up.sh

## down: stop the local stack
down:
	@deploy/down.sh

## demo: set up, start the stack, run the demo goal on the demo app
demo: up
	@TEMPORAL_ADDRESS=127.0.0.1:$${TEMPORAL_PORT:-7233} TEMPORAL_UI_URL=http://127.0.0.1:$${TEMPORAL_UI_PORT:-8233} \
		go run ./starter run --url "$(DEMO_URL)" '$(DEMO_GOAL)'

# Packages whose tests start no stack: also run with the race detector. The page driver's
# tests (go test -race ./activities/browser/driver/) are not among them: playwright-go
# 0.5200 closes a context while its own route dispatch reads, unlocked, whether it was
# closed, a race the detector reports in about one run in six.
RACE_PKGS := ./plan/... ./activities ./activities/page/... ./activities/model/... ./activities/planning/... ./activities/skills/... ./workflows/... ./starter/... ./internal/geminitest/...

## test: set up for the tests, then check (vet, staticcheck, workflowcheck) and run every test against real Temporal, MinIO and Chromium
##       the checks and the race detector's runs (test-checks) use the CPU while the end-to-end tests mostly wait for
##       browsers, servers and timeouts, so the two run side by side (test-go)
test: setup-test
	@$(MAKE) --no-print-directory -j2 --output-sync=line test-checks test-go

## test-checks: vet, staticcheck and workflowcheck, then the race detector over the packages whose tests start no stack
test-checks:
	@source deploy/versions.sh && set -e && \
		go vet ./... && go vet -tags faultinject ./internal/fault/ ./activities/browser/... && \
		"$$STATICCHECK_BIN" ./... && "$$STATICCHECK_BIN" -tags faultinject ./internal/fault/ && \
		"$$WORKFLOWCHECK_BIN" ./workflows/... && \
		echo "vet, staticcheck, workflowcheck: clean" && \
		go test -count=1 -race $(RACE_PKGS)

## test-go: every test (the end-to-end tests that mostly wait run two at a time, beside each other)
test-go:
	@source deploy/versions.sh && go test -count=1 -timeout 60m ./...

## faults: kill the worker at each point of a state-changing step, FAULT_RUNS times each (default 10);
##         the hook itself first (internal/fault built with -tags faultinject, as the killed worker is)
FAULT_RUNS ?= 10
faults: setup
	@set -o pipefail && source deploy/versions.sh && \
		go vet -tags faultinject ./internal/fault/ ./activities/browser/... && go test -count=1 -tags faultinject ./internal/fault/ && \
		WEBAGENT_FAULT_RUNS=$(FAULT_RUNS) go test -count=1 -timeout 90m -run 'TestWorkerKilled$$' -v ./e2e/ | grep -E '^(=== RUN|\s*--- |\s*faults_test|ok|FAIL)'

## load: a file of 20 goals, 8 at once, over two workers, one killed midway: all succeed, each project created once (not part of make test)
load: setup
	@set -o pipefail && source deploy/versions.sh && go vet -tags load ./e2e/ && \
		go test -count=1 -tags load -timeout 30m -run 'TestLoad$$' -v ./e2e/ | grep -E '^(=== RUN|\s*--- |\s*load_test|ok|FAIL)'

## noise: the noisy-model harness (docs/noise.md): the table of success, false successes, effects done twice, retries
##        on a vetoed element, model calls and tokens per noise level, at the workflow level (NOISE_SIM_SEEDS seeds, default 200)
##        and end to end (NOISE_E2E_SEEDS seeds, default 10); NOISE_LEVELS default "0 0.1 0.2". The numbers are printed
##        whether or not the bar at the highest level holds.
NOISE_LEVELS ?= 0 0.1 0.2
NOISE_SIM_SEEDS ?= 200
NOISE_E2E_SEEDS ?= 10
noise: setup-test
	@source deploy/versions.sh && export NOISE_LEVELS="$(NOISE_LEVELS)" NOISE_SIM_SEEDS=$(NOISE_SIM_SEEDS) NOISE_E2E_SEEDS=$(NOISE_E2E_SEEDS) && \
		{ go test -count=1 -timeout 30m -run 'TestSimNoise$$' -v ./internal/noise/ | grep -vE '^(=== RUN|PASS|ok|FAIL)'; \
		  go test -count=1 -timeout 90m -run 'TestNoise$$' -v ./e2e/ | grep -vE '^(=== RUN|PASS|ok|FAIL)'; true; }

## heldout: the held-out pool (docs/benchmarks.md): real apps the agent is run on blind, once, at the end of a change,
##          each goal in three phrasings, judged by the app's own storage; PHRASINGS=1 (or 2,3) runs only those phrasings;
##          HELDOUT=Shaarli,Radicale chooses (Fossil, MediaWiki, Adminer and PocketBase were the
##          first pool, ikiwiki, Roundcube, Syncthing and WordPress the second, Shaarli, phpMyAdmin, Radicale and Tiny Tiny RSS
##          the third, Transmission, Deluge, phpLDAPadmin and Nagios the fourth, ZNC, Postfix Admin, RabbitMQ and Request Tracker
##          the fifth, Cacti, Alertmanager, LDAP Account Manager and The Lounge the sixth: each run blind once, then mended;
##          Redis Commander, DAViCal, Zabbix and qBittorrent the seventh; Miniflux, Jupyter, Icinga Web 2 and Directus the
##          eighth; Tomcat, ejabberd, Etherpad and Ghost the ninth; Mailman, MeshCentral, Homebridge and calibre the tenth;
##          Signal K, Tryton, n8n and LedgerSMB the eleventh; Gitit, Sympa, Actual Budget and ZoneMinder the twelfth; CUPS,
##          NZBGet, NocoDB and Glewlwyd the thirteenth; phpLiteAdmin, Supervisor, Flood and Decap CMS the fourteenth; OCS
##          Inventory, the Federated Wiki, Cloud Commander and the Temporal Web UI the fifteenth; MailDev, EtherCalc, Monit and
##          BackupPC the sixteenth; Zoph, Orthanc, PouchDB Server and hledger-web are the seventeenth, the default)
##          (not part of make test; installs only the apps
##          it runs, `deploy/setup.sh <app>`); with GEMINI_API_KEY set, the pool's workers plan, resolve and judge with the model
HELDOUT ?= Zoph,Orthanc,Pouchdb,Hledger
heldout: setup-test
	@for app in $$(echo '$(HELDOUT)' | tr ',' ' ' | tr 'A-Z' 'a-z' | sed 's/nodered/node-red/'); do deploy/setup.sh $$app || exit 1; done
	@set -o pipefail && source deploy/versions.sh && go vet -tags heldout ./e2e/ && \
		WEBAGENT_HELDOUT_PHRASINGS="$(PHRASINGS)" go test -count=1 -tags heldout -timeout 120m -run "^TestHeldOut($$(echo '$(HELDOUT)' | tr ',' '|'))$$" -v ./e2e/ | \
		grep -vE '^(=== (RUN|PAUSE|CONT))'

## miniwob: run the MiniWoB++ benchmark on the task pages in MINIWOB (a folder, not part of the project), SEEDS episodes per task (default 3);
##          optional TASKS=a,b  SKIP=a,b  PLANS=DIR (<task>.json plans)  OUT=FILE (the table as Markdown)
MINIWOB ?=
SEEDS ?= 3
miniwob:
	@if [ -z "$(MINIWOB)" ]; then echo "make miniwob: set MINIWOB to the MiniWoB++ folder (the one holding miniwob/ and core/), e.g. make miniwob MINIWOB=/path/to/miniwob SEEDS=3" >&2; exit 2; fi
	@deploy/setup.sh demo
	@source deploy/versions.sh && \
		WEBAGENT_MINIWOB="$(abspath $(MINIWOB))" WEBAGENT_MINIWOB_SEEDS=$(SEEDS) \
		WEBAGENT_MINIWOB_TASKS="$(TASKS)" WEBAGENT_MINIWOB_SKIP="$(SKIP)" \
		WEBAGENT_MINIWOB_PLANS="$(if $(PLANS),$(abspath $(PLANS)))" WEBAGENT_MINIWOB_OUT="$(if $(OUT),$(abspath $(OUT)))" \
		go test -count=1 -timeout 120m -run 'TestMiniWoB$$' -v ./e2e/

## check: the static checks alone (vet, staticcheck, workflowcheck)
check:
	@deploy/setup.sh checks >/dev/null && source deploy/versions.sh && go vet ./... && go vet -tags faultinject ./internal/fault/ ./activities/browser/... && "$$STATICCHECK_BIN" ./... && "$$WORKFLOWCHECK_BIN" ./workflows/... && echo clean

vet:
	go vet ./...

build:
	go build ./...

## clean: stop the stack and remove its state (runs, screenshots)
clean: down
	rm -rf .run
