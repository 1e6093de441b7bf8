#!/bin/bash
# The siw rping stall, as a new user would meet it: BOOTS boots of one guest
# (Debian's kernel, siw by default), each running RUNS connections of
# Debian's unmodified rping server and client against each other on the
# guest's own address (or across two guests: -g 2), each bounded, the
# guests' TCP captured for every run (tcpdump, Debian's, fetched like the
# guest's other packages).
# A run whose client printed no round is a stall; its evidence (the
# programs' debug lines, kernel stacks, ss, rdma resource show, dmesg, the
# capture) stays in the boot's log. The guest's side is
# tests/kernel/kt_rping_stall.sh; what it found, examples/README.md ("siw: a
# connection that stalls before its first round").
#
#   siw-rping-stall.sh BUILD_DIR [options]
#     -b BOOTS      boots (default 3)
#     -n RUNS       connections per boot (default 30); -n 1 with many boots
#                   tries only the first connection after boot
#     -p PAIR       SERVER:CLIENT, rping or uvio_rping each (default rping:rping)
#     -d DEV        siw (default) or rxe (the control)
#     -k KERNEL     a suite, as run-multi.sh takes it (default bookworm: 6.1)
#     -t BOUND      seconds a client has for all its rounds (default 15)
#     -c COUNT      rounds per connection (default 20; size 4096, as the suite)
#     -l LOOPS      load the host with LOOPS busy loops meanwhile (default 0)
#     -g GUESTS     1 (default: server and client in one guest) or 2 (the
#                   server in guest 0, the client in guest 1, as the suite's
#                   -2guests tests; one CPU each unless UVIO_VM_SMP says
#                   otherwise: two in all, as one guest has)
#     -N            no capture (to see whether tcpdump changes the rate)
#     -w MS         siw only: boot a siw.ko built from the same sources with
#                   an msleep(MS) where siw_accept() has sent its MPA reply
#                   and not yet handed the socket to the QP (the window this
#                   stall falls into), to show what a first message that
#                   arrives in it does; not Debian's siw any more
#
# Logs: BUILD_DIR/vm/siw-rping-stall/<date>/boot-N.log, and summary.txt.
# Exit: 0 no run stalled or failed, 1 at least one did, 2 the harness failed.
# Not in the default ctest run (minutes); by hand, e.g.
#   tests/vm/siw-rping-stall.sh build -b 5 -n 40 -l 2
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: siw-rping-stall.sh BUILD_DIR [options]}" && pwd); shift
guests=1 boots=3 runs=30 pair=rping:rping dev=siw kernel=bookworm bound=15 count=20 loops=0 capture=1 widen=
while getopts b:n:p:d:k:t:c:l:g:w:N o; do
	case $o in
	b) boots=$OPTARG ;; n) runs=$OPTARG ;; p) pair=$OPTARG ;; d) dev=$OPTARG ;;
	k) kernel=$OPTARG ;; t) bound=$OPTARG ;; c) count=$OPTARG ;; l) loops=$OPTARG ;;
	g) guests=$OPTARG ;; N) capture=0 ;; w) widen=$OPTARG ;;
	*) sed -n '13,33p' "$0"; exit 2 ;;
	esac
done
for v in "$boots" "$runs" "$bound" "$count" "$loops" ${widen:+"$widen"}; do
	case $v in ''|*[!0-9]*) echo "stall: not a number: '$v'"; exit 2 ;; esac
done
case $pair in rping:rping|rping:uvio_rping|uvio_rping:rping|uvio_rping:uvio_rping) ;;
*) echo "stall: PAIR is SERVER:CLIENT of rping and uvio_rping, not '$pair'"; exit 2 ;; esac
case $guests in
1) roles=(loop) g=g0 ;;
2) roles=(server client) g=g1 ;;	# the client's guest says whether a round came
*) echo "stall: GUESTS is 1 or 2, not '$guests'"; exit 2 ;;
esac

cache=${UVIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uvio}
export UVIO_CACHE=$cache
# tcpdump and libpcap from Debian 12, unpacked into the cache once.
tools=$cache/stall-tools
pkgs="tcpdump libpcap0.8"
if [ "$capture" = 1 ] && ! { [ -f "$tools/.done" ] && [ "$(cat "$tools/.done")" = "$pkgs" ]; }; then
	rm -rf "$tools" && mkdir -p "$tools/debs"
	(cd "$tools/debs" && "$here/apt.sh" bookworm apt-get download -q $pkgs >&2) ||
		{ echo "stall: could not fetch $pkgs"; exit 2; }
	for d in "$tools"/debs/*.deb; do dpkg -x "$d" "$tools/root"; done
	echo "$pkgs" > "$tools/.done"
fi
# -w: siw.ko with the wider window, built once per kernel and width.
siwko=
if [ -n "$widen" ]; then
	[ "$dev" = siw ] || { echo "stall: -w is for siw"; exit 2; }
	kdir=$("$here/fetch.sh" "$kernel" siw kbuild) || { echo "stall: could not fetch $kernel"; exit 2; }
	series=$(cat "$kdir/series") version=${kdir##*_}
	siwko=$tools/siw-$(basename "$kdir")-msleep$widen.ko
	mkdir -p "$tools"
	if [ ! -f "$siwko" ]; then
		src=$(ls "$cache/debs/$(cat "$kdir/suite")/linux-source-${series}_${version#*:}_all.deb")
		w=$(mktemp -d)
		dpkg-deb --fsys-tarfile "$src" | tar -x -C "$w" --wildcards '*/linux-source-*.tar.*'
		tarball=$(ls "$w"/usr/src/linux-source-*.tar.*)
		top=$(basename "$tarball"); top=${top%.tar.*}
		tar -xaf "$tarball" -C "$w" "$top/drivers/infiniband/sw/siw"
		d=$w/$top/drivers/infiniband/sw/siw
		# Before siw_accept()'s siw_qp_socket_assoc(), the one call that gives
		# the socket's receive upcall to the QP (after the MPA reply is sent).
		awk -v ms="$widen" '
			/^int siw_accept\(/ { inacc = 1 }
			inacc && /siw_qp_socket_assoc\(cep, qp\);/ && !done {
				print "\t\tmsleep(" ms ");"; done = 1 }
			{ print }
			END { if (!done) exit 1 }' "$d/siw_cm.c" > "$d/siw_cm.c.new" ||
			{ echo "stall: siw_accept() not as expected in $top"; rm -rf "$w"; exit 2; }
		{ echo '#include <linux/delay.h>'; cat "$d/siw_cm.c.new"; } > "$d/siw_cm.c"
		"$kdir/kbuild/kmake" -s M="$d" CONFIG_RDMA_SIW=m modules >&2 ||
			{ echo "stall: building siw.ko failed"; rm -rf "$w"; exit 2; }
		strip --strip-debug -o "$siwko" "$d/siw.ko"
		rm -rf "$w"
	fi
	echo "stall: siw.ko with msleep($widen) before siw_accept() hands the socket to the QP: $siwko"
fi
libstdbuf=/usr/libexec/coreutils/libstdbuf.so
[ -f "$libstdbuf" ] || { echo "stall: no $libstdbuf (coreutils)"; exit 2; }
with="@USERLAND@/bin/ss $libstdbuf"
[ "$capture" = 1 ] && with="$with $tools/root/usr/bin/tcpdump"

out=$build/vm/siw-rping-stall/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
load=()
stop_load() { for p in "${load[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop_load EXIT
for ((j = 0; j < loops; j++)); do
	( while :; do :; done ) &
	load+=($!)
done
desc="kernel $kernel, $dev, $pair, $guests guest(s), $boots boot(s) x $runs run(s), $count rounds, bound $bound s,"
desc="$desc capture $capture,${widen:+ siw widened by msleep($widen),} host load $loops busy loop(s) on $(nproc) CPUs"
echo "stall: $desc; logs in $out"
echo "$desc" > "$out/summary.txt"
tot_runs=0 tot_ok=0 tot_stalled=0 tot_failed=0 tot_first=0 harness=0
for ((b = 1; b <= boots; b++)); do
	log=$out/boot-$b.log
	rc=0
	UVIO_VM_DEV=$dev UVIO_VM_ARGS=$runs,$pair,$bound,$count,4096,$capture \
	UVIO_VM_WITH=$with UVIO_VM_LIBPATH=$tools/root/usr/lib/x86_64-linux-gnu UVIO_VM_SIW=$siwko \
	UVIO_VM_TIMEOUT=$((runs * (bound + 30) + 120)) UVIO_VM_SMP=${UVIO_VM_SMP:-$((2 / guests))} \
		"$here/run-multi.sh" "$build" "$kernel" "$guests" "$here/../kernel/kt_rping_stall.sh" \
		"${roles[@]}" -- "$here/../kernel/guest-lib.sh" > "$log" 2>&1 || rc=$?
	r=$(sed -n "s/^\[$g\] stall\[${roles[-1]}\]: RESULT //p" "$log" | tail -n1)
	line="boot $b: ${r:-no result (run-multi exit $rc)}; host load $(cut -d' ' -f1-3 /proc/loadavg)"
	[ "$guests" = 2 ] && line="$line; server's guest: $(sed -n 's/^\[g0\] stall\[server\]: RESULT //p' "$log" | tail -n1)"
	echo "stall: $line"; echo "$line" >> "$out/summary.txt"
	grep -E '^\[g[01]\] stall\[[a-z]+\]: run [0-9]+: (STALLED|FAILED)' "$log" || true
	[ -n "$r" ] || { harness=$((harness + 1)); continue; }
	set -- $r	# runs R ok O stalled S failed F first-stalled X ...
	tot_runs=$((tot_runs + $2)) tot_ok=$((tot_ok + $4)) tot_stalled=$((tot_stalled + $6))
	tot_failed=$((tot_failed + $8)) tot_first=$((tot_first + ${10}))
done
line="total: $tot_runs runs in $((boots - harness)) boot(s): ok $tot_ok, stalled $tot_stalled"
line="$line (first connection of a boot: $tot_first), failed otherwise $tot_failed"
[ $harness = 0 ] || line="$line; $harness boot(s) gave no result"
echo "stall: $line"; echo "$line" >> "$out/summary.txt"
[ $harness = 0 ] || exit 2
[ $((tot_stalled + tot_failed)) = 0 ] || exit 1
exit 0
