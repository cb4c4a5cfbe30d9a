package testenv

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// nagiosMain is the instance's nagios.cfg (%[1]s is its folder, %[2]s and %[3]s the user and
// group the daemon runs as: the test's own). Checks are hourly and scheduled at once as
// the daemon starts (no spreading), a first failure is a hard state, commands are read
// from a named pipe, the status file is rewritten every two seconds and the state kept in
// a retention file; nothing is logged to syslog and no update check is made.
const nagiosMain = `log_file=%[1]s/nagios.log
cfg_file=%[1]s/objects.cfg
object_cache_file=%[1]s/objects.cache
precached_object_file=%[1]s/objects.precache
status_file=%[1]s/status.dat
status_update_interval=2
state_retention_file=%[1]s/retention.dat
retain_state_information=1
retention_update_interval=60
nagios_user=%[2]s
nagios_group=%[3]s
check_external_commands=1
command_file=%[1]s/nagios.cmd
query_socket=%[1]s/nagios.qh
lock_file=%[1]s/nagios.lock
temp_file=%[1]s/nagios.tmp
temp_path=%[1]s
check_result_path=%[1]s/checkresults
log_archive_path=%[1]s/archives
use_syslog=0
log_external_commands=1
log_passive_checks=1
service_inter_check_delay_method=n
host_inter_check_delay_method=n
max_service_check_spread=1
max_host_check_spread=1
interval_length=60
check_for_updates=0
bare_update_check=0
enable_notifications=1
execute_service_checks=1
accept_passive_service_checks=1
execute_host_checks=1
accept_passive_host_checks=1
enable_event_handlers=1
enable_flap_detection=0
check_service_freshness=0
check_host_freshness=0
date_format=us
illegal_object_name_chars=` + "`" + `~!$%%^&*|'"<>?,()=
illegal_macro_output_chars=` + "`" + `~$&|'"<>
`

// nagiosObjects are the objects every instance defines besides its hosts and services:
// the check and notification commands (%[1]s is the folder of the check scripts), the
// one contact and its group, the 24x7 time period and the templates.
const nagiosObjects = `define timeperiod {
	timeperiod_name	24x7
	alias		24 Hours A Day, 7 Days A Week
	sunday		00:00-24:00
	monday		00:00-24:00
	tuesday		00:00-24:00
	wednesday	00:00-24:00
	thursday	00:00-24:00
	friday		00:00-24:00
	saturday	00:00-24:00
}
define command {
	command_name	check_script
	command_line	%[1]s/$ARG1$
}
define command {
	command_name	notify-by-nothing
	command_line	/bin/true
}
define contact {
	contact_name			nagiosadmin
	alias				Nagios Admin
	service_notification_period	24x7
	host_notification_period	24x7
	service_notification_options	w,u,c,r
	host_notification_options	d,u,r
	service_notification_commands	notify-by-nothing
	host_notification_commands	notify-by-nothing
}
define contactgroup {
	contactgroup_name	admins
	alias			Nagios Administrators
	members			nagiosadmin
}
define host {
	name			server
	check_period		24x7
	check_interval		60
	retry_interval		1
	max_check_attempts	1
	notification_period	24x7
	notification_interval	120
	notification_options	d,u,r
	contact_groups		admins
	register		0
}
define service {
	name			service
	check_period		24x7
	check_interval		60
	retry_interval		1
	max_check_attempts	1
	notification_period	24x7
	notification_interval	120
	notification_options	w,u,c,r
	contact_groups		admins
	register		0
}
`

// nagiosCGI is the instance's cgi.cfg (%[1]s is its folder, %[2]s the user): Debian's, with
// authentication on (the user named by REMOTE_USER, authorized for everything).
const nagiosCGI = `main_config_file=%[1]s/nagios.cfg
physical_html_path=` + nagiosHTDocs + `
url_html_path=/nagios4
show_context_help=0
use_pending_states=1
use_authentication=1
use_ssl_authentication=0
authorized_for_system_information=%[2]s
authorized_for_configuration_information=%[2]s
authorized_for_system_commands=%[2]s
authorized_for_all_services=%[2]s
authorized_for_all_hosts=%[2]s
authorized_for_all_service_commands=%[2]s
authorized_for_all_host_commands=%[2]s
default_statuswrl_layout=4
refresh_rate=90
result_limit=100
escape_html_tags=1
action_url_target=_blank
notes_url_target=_blank
lock_author_names=1
navbar_search_for_addresses=1
navbar_search_for_aliases=1
`

// nagiosConfigure writes the instance's folder: a check script per host and service,
// objects.cfg, nagios.cfg, cgi.cfg, and the copy of the PHP pages.
func nagiosConfigure(t testing.TB, w *Nagios) {
	t.Helper()
	plugins := filepath.Join(w.Dir, "plugins")
	for _, d := range []string{plugins, filepath.Join(w.Dir, "checkresults"), filepath.Join(w.Dir, "archives"), filepath.Join(w.www, "includes")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var objects strings.Builder
	fmt.Fprintf(&objects, nagiosObjects, plugins)
	for i, h := range NagiosHosts {
		script := fmt.Sprintf("host%d", i)
		nagiosScript(t, filepath.Join(plugins, script), h.Output, h.State*2)
		fmt.Fprintf(&objects, "define host {\n\tuse\t\tserver\n\thost_name\t%s\n\talias\t\t%s\n\taddress\t\t%s\n\tcheck_command\tcheck_script!%s\n}\n",
			h.Name, h.Alias, h.Address, script)
	}
	for i, s := range NagiosServices {
		script := fmt.Sprintf("service%d", i)
		nagiosScript(t, filepath.Join(plugins, script), s.Output, s.State)
		fmt.Fprintf(&objects, "define service {\n\tuse\t\t\tservice\n\thost_name\t\t%s\n\tservice_description\t%s\n\tcheck_command\t\tcheck_script!%s\n}\n",
			s.Host, s.Name, script)
	}
	write(t, filepath.Join(w.Dir, "objects.cfg"), objects.String())
	u, g := nagiosRunAs()
	write(t, filepath.Join(w.Dir, "nagios.cfg"), fmt.Sprintf(nagiosMain, w.Dir, u, g))
	write(t, filepath.Join(w.Dir, "cgi.cfg"), fmt.Sprintf(nagiosCGI, w.Dir, w.User))
	nagiosCopyPages(t, w)
}

// nagiosScript writes a check script that prints output and exits with code.
func nagiosScript(t testing.TB, path, output string, code int) {
	t.Helper()
	text := fmt.Sprintf("#!/bin/sh\necho '%s'\nexit %d\n", strings.ReplaceAll(output, "'", `'\''`), code)
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

// nagiosRunAs is the user and group the daemon is told to run as: the test's own, so that
// it neither changes user nor needs Debian's nagios user.
func nagiosRunAs() (string, string) {
	u, err := user.Current()
	if err != nil {
		return fmt.Sprint(os.Getuid()), fmt.Sprint(os.Getgid())
	}
	g := u.Gid
	if grp, err := user.LookupGroupId(u.Gid); err == nil {
		g = grp.Name
	}
	return u.Username, g
}

// nagiosCopyPages copies the package's PHP pages into the instance's www folder, their
// configuration (config.inc.php) pointing at the instance's cgi.cfg, nagios.cfg and status
// file rather than /etc/nagios4's; every other file is served from the package's folder.
func nagiosCopyPages(t testing.TB, w *Nagios) {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join(nagiosHTDocs, "*.php"))
	includes, _ := filepath.Glob(filepath.Join(nagiosHTDocs, "includes", "*.php"))
	r := strings.NewReplacer("/etc/nagios4/cgi.cfg", filepath.Join(w.Dir, "cgi.cfg"),
		"/etc/nagios4/nagios.cfg", filepath.Join(w.Dir, "nagios.cfg"),
		"/var/lib/nagios4/status.dat", filepath.Join(w.Dir, "status.dat"),
		"/var/lib/nagios4/retention.dat", filepath.Join(w.Dir, "retention.dat"))
	for _, src := range append(pages, includes...) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(nagiosHTDocs, src)
		text := r.Replace(string(b))
		if strings.Contains(text, "/etc/nagios4/") || strings.Contains(text, "/var/lib/nagios4/") {
			t.Fatalf("nagios: %s still names a system path", rel)
		}
		write(t, filepath.Join(w.www, rel), text)
	}
	if !exists(filepath.Join(w.www, "config.inc.php")) {
		t.Fatalf("nagios: %s has no config.inc.php", nagiosHTDocs)
	}
}
