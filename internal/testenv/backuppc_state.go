package testenv

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
)

// BackupPCState is what an instance's storage holds, as the judges compare it: a table →
// a row's key → column → value as text. "config" is config.pl (a setting's name → its
// "value"), "host config" each host's own file (HOST.pl: "HOST / setting" → "value"),
// "hosts" the hosts file (a host → "dhcp", "user", "moreUsers"), "backups" the pc/ folders'
// backups files ("HOST #N" → "type": full or incr) and "status" the server's status of each
// host it knows ("state", "reason"). A value is a setting's as text: a list as
// "[a, b]", a table as "{k: v}", no value as "undef".
type BackupPCState map[string]map[string]map[string]string

// backuppcTables are the tables State reads, in the order a difference is told.
var backuppcTables = []string{"hosts", "config", "host config", "backups", "status"}

// State reads the instance's storage (see BackupPCState), failing the test when it cannot.
func (b *BackupPC) State(t testing.TB) BackupPCState {
	t.Helper()
	s, err := b.state()
	if err != nil {
		t.Fatalf("backuppc: %v", err)
	}
	return s
}

func (b *BackupPC) state() (BackupPCState, error) {
	out, err := b.runPerl(backuppcStateScript, "")
	if err != nil {
		return nil, err
	}
	s := BackupPCState{}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		return nil, fmt.Errorf("the state script printed %q: %v", out, err)
	}
	for _, table := range backuppcTables {
		if s[table] == nil {
			s[table] = map[string]map[string]string{}
		}
	}
	return s, nil
}

// Seed is the state of the fresh instance, once seeded and its seed backups done (a copy).
func (b *BackupPC) Seed() BackupPCState { return cloneRows(b.seed) }

// Differs says how the storage differs from the seed with changes made, "" when it does
// not (rowsDiffer says how changes read: a row's key → nil for a row gone, else the
// columns that changed or the new row's, "*" for any value).
func (b *BackupPC) Differs(t testing.TB, changes BackupPCState) string {
	t.Helper()
	now, err := b.state()
	if err != nil {
		return err.Error()
	}
	return rowsDiffer(backuppcTables, b.Seed(), now, changes)
}

// Value is one setting of config.pl as State shows it.
func (s BackupPCState) Value(name string) string { return s["config"][name]["value"] }

// HostValue is one setting of a host's own config as State shows it ("" for none).
func (s BackupPCState) HostValue(host, name string) string {
	return s["host config"][host+" / "+name]["value"]
}

// Hosts are the hosts of the hosts file, sorted.
func (s BackupPCState) Hosts() []string { return slices.Sorted(maps.Keys(s["hosts"])) }

// backuppcSeedScript writes the seed's settings with BackupPC's own library, as the CGI's
// Save does: config.pl read whole, the seed's values set and written back (comments kept),
// and each host's own file with its settings. Its input is {"main": {...}, "hosts":
// {HOST: {...}}}; its arguments the config folder and the TopDir.
const backuppcSeedScript = `
use strict;
use JSON::PP;
use BackupPC::Storage;
my ($conf, $top) = @ARGV;
local $/;
my $in = decode_json(<STDIN>);
my $s = BackupPC::Storage->new({TopDir => $top, ConfDir => $conf, LogDir => "$top/log", useFHS => 0});
my ($err, $c) = $s->ConfigDataRead(undef);
die "read config.pl: $err\n" if $err;
$c->{$_} = $in->{main}{$_} for keys %{$in->{main}};
$err = $s->ConfigDataWrite(undef, $c);
die "write config.pl: $err\n" if $err;
for my $host (sort keys %{$in->{hosts}}) {
    $err = $s->ConfigDataWrite($host, $in->{hosts}{$host});
    die "write $host.pl: $err\n" if $err;
}
`

// backuppcMesgScript sends its input, a line, to the server as BackupPC_serverMesg does
// and prints the server's reply.
const backuppcMesgScript = `
use strict;
use BackupPC::Lib;
my $bpc = BackupPC::Lib->new or die "BackupPC::Lib->new failed\n";
my $err = $bpc->ServerConnect($bpc->{Conf}{ServerHost}, $bpc->{Conf}{ServerPort});
die "connect to the server: $err\n" if $err;
my $mesg = <STDIN>;
chomp $mesg;
my $reply = $bpc->ServerMesg($mesg); # one line: in a list, it would wait for the server to close
print $reply;
`

// backuppcStateScript prints the storage as BackupPCState's tables, in JSON.
const backuppcStateScript = `
use strict;
use JSON::PP;
use BackupPC::Lib;
our %Conf;
my ($conf, $top) = @ARGV;
sub flat {
    my ($v) = @_;
    return "undef" if !defined $v;
    return "[" . join(", ", map { flat($_) } @$v) . "]" if ref $v eq "ARRAY";
    return "{" . join(", ", map { "$_: " . flat($v->{$_}) } sort keys %$v) . "}" if ref $v eq "HASH";
    return "$v";
}
sub settings {
    my ($file) = @_;
    %Conf = ();
    do $file;
    die "read $file: $@$!\n" if $@;
    return { %Conf };
}
my $bpc = BackupPC::Lib->new or die "BackupPC::Lib->new failed\n";
my %st = (config => {}, "host config" => {}, hosts => {}, backups => {}, status => {});
my $main = settings("$conf/config.pl");
$st{config}{$_} = { value => flat($main->{$_}) } for keys %$main;
opendir(my $d, $conf) or die "$conf: $!\n";
for my $f (grep { /^(.+)\.pl$/ && $_ ne "config.pl" } readdir $d) {
    my $host = $f =~ s/\.pl$//r;
    my $h = settings("$conf/$f");
    $st{"host config"}{"$host / $_"} = { value => flat($h->{$_}) } for keys %$h;
}
my $hosts = $bpc->HostInfoRead() or die "read the hosts file\n";
for my $host (keys %$hosts) {
    $st{hosts}{$host} = { map { $_ => $hosts->{$host}{$_} // "" } qw(dhcp user moreUsers) };
}
opendir(my $pc, "$top/pc") or die "$top/pc: $!\n";
for my $host (grep { !/^\./ && -d "$top/pc/$_" } readdir $pc) {
    $st{backups}{"$host #$_->{num}"} = { type => $_->{type} } for $bpc->BackupInfoRead($host);
}
my $err = $bpc->ServerConnect($bpc->{Conf}{ServerHost}, $bpc->{Conf}{ServerPort});
die "connect to the server: $err\n" if $err;
my $reply = $bpc->ServerMesg("status hosts");
my %Status;
eval $reply;
die "the server's status: $reply\n" if $@ || $reply !~ /^%Status/;
for my $host (keys %Status) {
    $st{status}{$host} = { state => $Status{$host}{state} // "", reason => $Status{$host}{reason} // "" };
}
print JSON::PP->new->canonical->encode(\%st);
`
