#!/bin/sh
# In the guest (tests/pyverbs/vm-pyverbs.sh boots it): rdma-core's Python
# test suite on the RDMA devices named (every one the guest has when none
# is), once on the stock provider and once on
# the libibverbs plug-in of this project (RDMAV_DRIVERS), each module of the
# suite in its own python process, bounded by UVIO_PYV_BOUND seconds
# (default 240).
#
#   kt_pyverbs.sh [DEVICE...]
#
# The modules for other hardware (test_mlx5_*, test_efa*,
# test_cuda*: every test of theirs checks the device first and skips on
# rxe and siw) share one process a run: a process costs 3-5 s under TCG,
# mostly the suite's import of all its modules, and they are 25 of 44. On
# an mlx5 device the test_mlx5_* modules are its own and run, all 22 in one
# process (as rdma-core's run_tests.py runs the whole suite in one): each
# test makes and frees its own objects and puts back the environment
# variables it set, and a process that dies or hangs voids every module of
# its group on that run (a "crash" or "timeout" line for each), which the
# comparison counts as worse, so the grouping hides no failure.
# Prints, between "UVIO-FILE-BEGIN pyverbs/results.tsv" and
# "UVIO-FILE-END pyverbs/results.tsv", one line per test and run:
#
#   DEVICE PROVIDER TEST_ID RESULT REASON          (tab separated)
#
# RESULT as tests/pyverbs/run_module.py prints it, or "timeout" / "crash"
# (a line for the module as a whole) when its process was killed at the
# bound or died without reporting. A module run on the plug-in whose
# process made no command through this library (its UVERBS_IOCTL_TRACE
# lines) while the stock run passed a test is a "not-served" line: the
# comparison counts it as worse, so a plug-in that silently fell back to
# the stock provider cannot pass.
# The verdict (nothing worse on the plug-in than on stock) is the host's
# (tests/pyverbs/compare.py); this script fails only when it cannot run.
suite=/opt/uvio/pyverbs/tests
runner=/opt/uvio/bin/run_module.py
# The tests that need the stock provider's own library (mlx5dv, DEVX), with
# why (tests/pyverbs/expected-mlx5.tsv; in the guest for an mlx5 boot only).
expected=/opt/uvio/bin/expected-mlx5.tsv
plugin=/opt/uvio/bin/libuvio-rdmav34.so
bound=${UVIO_PYV_BOUND:-240}
out=/tmp/pyverbs
rm -rf $out && mkdir -p $out
for f in $suite/run_tests.py $runner $plugin /usr/bin/python3; do
	[ -e "$f" ] || { echo "kt_pyverbs: no $f in the guest"; exit 1; }
done
# The suite's tests make temporary files and shared memory (fork tests).
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm 2>/dev/null
all=$(cd $suite && ls test_*.py | sed 's/\.py$//')
have=$(rdma link show | sed -n 's/^link \([^/]*\)\/.*/\1/p' | tr '\n' ' ')
devs=${*:-$have}
[ -n "$devs" ] || { echo "kt_pyverbs: no RDMA device in the guest"; exit 1; }
for dev in $devs; do
	case " $have " in *" $dev "*) ;; *) echo "kt_pyverbs: no device $dev in the guest (it has: $have)"; exit 1 ;; esac
done
# modules_for DEV: the modules of one run, a word a process: those for
# other hardware than DEV's last, in one process; on mlx5 the device's own
# test_mlx5_* in one process too.
group() {	# group REGEX: the modules matching, comma separated
	echo "$all" | grep -E "^test_($1)" | tr '\n' , | sed 's/,$//'
}
modules_for() {
	case $1 in
	mlx5_*) echo "$(echo "$all" | grep -vE '^test_(mlx5|efa|cuda)') $(group mlx5) $(group 'efa|cuda')" ;;
	*) echo "$(echo "$all" | grep -vE '^test_(mlx5|efa|cuda)') $(group 'mlx5|efa|cuda')" ;;
	esac
}
for dev in $devs; do
	echo "kt_pyverbs: $(echo "$all" | wc -l) modules in $(modules_for $dev | wc -w) processes a run on $dev; bound $bound s a process"
done

# python_run DEV stock|uvio|uvio-retry TESTS LOG: the runner, bounded, its
# lines in LOG.out and its stderr (the plug-in's trace) in LOG.err.
python_run() {
	penv=
	case $2 in stock*) ;; *) penv="RDMAV_DRIVERS=${plugin%-rdmav34.so} UVERBS_IOCTL_TRACE=1" ;; esac
	env $penv timeout -s KILL "$bound" /usr/bin/python3 $runner $suite "$1" "$3" \
		> "$4.out" 2> "$4.err"
}

run_module() {	# run_module DEV stock|uvio MODULE[,MODULE...]
	dev=$1 prov=$2 mod=$3
	log=$out/$dev-$prov-${mod%%,*}
	start=$(date +%s)
	python_run "$dev" "$prov" "$mod" "$log"
	rc=$?
	secs=$(($(date +%s) - start))
	n=$(grep -c '^UVIO-PYV	' "$log.out")
	cmds=$(grep -c '^uverbs-ioctl: ' "$log.err")
	grep '^UVIO-PYV	' "$log.out" | sed "s/^UVIO-PYV	/$dev	$prov	/" >> $out/results.tsv
	# A line for each module of the process, for what voids its results.
	whole=
	if [ $rc = 137 ] || [ $rc = 124 ]; then
		whole="timeout	killed after $bound s, $n tests reported"
	elif [ $rc != 0 ]; then
		whole="crash	exit $rc: $(grep -v '^uverbs-ioctl: ' "$log.err" | tail -n 3 | tr '\t\n' '  ')"
	elif [ "$prov" = uvio ] && [ "$cmds" = 0 ] && grep -q '	ok	' "$log.out"; then
		whole="not-served	the plug-in made no command"
	fi
	if [ -n "$whole" ]; then
		for m in $(echo "$mod" | tr , ' '); do
			printf '%s\t%s\ttests.%s\t%s\n' "$dev" "$prov" "$m" "$whole" >> $out/results.tsv
		done
	fi
	printf '  %-8s %-5s %-28s %3s tests %4s s  exit %s  %s commands\n' \
		"$dev" "$prov" "$(echo "$mod" | sed 's/,.*/,.../')" "$n" "$secs" "$rc" "$cmds"
}

# A test that passed on stock but not on the plug-in runs again, alone,
# on the plug-in and then on stock, three rounds at most: some of the
# suite's tests race the device (test_cq's test_resize_cq shrinks a CQ
# before the sends it counts on have completed, and fails on stock as well
# as on the plug-in when the completions come late; once in CI, on a busy
# host, it failed three times in a row on the plug-in). It stops at the plug-in's
# first pass, or at stock's first failure: then the test is the device's
# race, not a difference of the plug-in. Its lines say "uvio-retry" and
# "stock-retry"; compare.py names every test that passed, or that stock
# failed, only so. The tests listed as needing the stock provider (on an
# mlx5 device) do not run again: the plug-in cannot pass them however often
# they run (mlx5dv_open_device() refuses its device), and compare.py judges
# them by the list, by id, whether run again or not.
retry_worse() {	# retry_worse DEV
	list=/dev/null
	case $1 in mlx5_*) [ -f $expected ] && list=$expected ;; esac
	awk -F'\t' -v d="$1" -v l="$list" 'FILENAME == l { if ($0 !~ /^#/ && NF == 2) x[$1] = 1; next }
		$1 == d && $2 == "stock" && ($4 == "ok" || $4 == "xfail") { s[$3] = 1 }
		$1 == d && $2 == "uvio" && $4 != "ok" && $4 != "xfail" { u[$3] = 1 }
		END { for (t in u) if (t in s && !(t in x)) print t }' $list $out/results.tsv |
	while read -r t; do
		for try in 1 2 3; do
			log=$out/$1-retry-$try-$t
			python_run "$1" uvio-retry "${t#tests.}" "$log"
			grep '^UVIO-PYV	' "$log.out" | sed "s/^UVIO-PYV	/$1	uvio-retry	/" >> $out/results.tsv
			r=$(grep '^UVIO-PYV	' "$log.out" | cut -f3)
			echo "  $1 plug-in, again ($try): $t: ${r:-no result}"
			[ "$r" = ok ] && break
			log=$out/$1-stock-retry-$try-$t
			python_run "$1" stock-retry "${t#tests.}" "$log"
			grep '^UVIO-PYV	' "$log.out" | sed "s/^UVIO-PYV	/$1	stock-retry	/" >> $out/results.tsv
			r=$(grep '^UVIO-PYV	' "$log.out" | cut -f3)
			echo "  $1 stock, again ($try): $t: ${r:-no result}"
			[ "$r" = ok ] || break
		done
	done
}

t0=$(date +%s)
for dev in $devs; do
	for prov in stock uvio; do
		for mod in $(modules_for "$dev"); do
			run_module "$dev" "$prov" "$mod"
		done
	done
	retry_worse "$dev"
done
echo "kt_pyverbs: $(wc -l < $out/results.tsv) results in $(($(date +%s) - t0)) s"
echo "UVIO-FILE-BEGIN pyverbs/results.tsv"
cat $out/results.tsv
echo "UVIO-FILE-END pyverbs/results.tsv"
