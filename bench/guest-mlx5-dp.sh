#!/bin/sh
# In the guest (bench/mlx5-dp.sh boots it): the mlx5 stand-in on dummy0,
# then bench/mlx5_dp under callgrind three times, the same work-request
# stream on mlx5_0: through this library's <uvio/dp.h> (uvio), through
# libibverbs + libmlx5 (ibv), and through the same libibverbs calls served
# by this library's plug-in, libuvio-rdmav34.so named by RDMAV_DRIVERS
# (plugin: mlx5_dp runs its ibv functions; it does not link libmlx5, so the
# plug-in can claim mlx5_0 in it, checked here and by the program).
# Only the program's counted functions are collected (--collect-atstart=no
# and a --toggle-collect for each); their inclusive counts are summed here
# from the callgrind file (each counted function's own lines plus the
# inclusive cost of every call it makes), and checked against callgrind's
# total. Prints "MLX5DP INSN LIB FN INSTRUCTIONS" lines and the program's
# "MLX5DP LIB ..." call counts; exits with the number of failures.
#
#   guest-mlx5-dp.sh MSGS
B=/opt/uvio/bin
DEV=mlx5_0
DRV=mlx5-dp-bench
TMO=600
MSGS=${1:-256}
. /opt/uvio/standin-lib.sh
T=/tmp/mlx5-dp-bench
rm -rf "$T" && mkdir -p "$T" && cd "$T" || exit 1
ko=$(ls $B/mlx5-*.ko 2>/dev/null | head -n1)
if [ -z "$ko" ] || ! insmod "$ko" netdev=dummy0; then
	bad "insmod ${ko:-(no stand-in module in $B)} netdev=dummy0"
	exit 1
fi
wait_gid0 $DEV
fns="send write recv poll rpoll empty"
PLUGIN=$B/libuvio-rdmav34.so
if LD_TRACE_LOADED_OBJECTS=1 $B/mlx5_dp 2>/dev/null | grep -q 'libmlx5\.so'; then
	bad "mlx5_dp links libmlx5: its provider would claim mlx5_0 before the plug-in"
fi
for lib in uvio ibv plugin; do
	# plugin: the ibv functions (the same calls), the plug-in serving them;
	# both libibverbs runs trace the library's commands (setup only, not
	# counted): the plug-in's QP is created through it, libmlx5's is not.
	fl=$lib env=
	case $lib in
	ibv) env="UVERBS_IOCTL_TRACE=1" ;;
	plugin) fl=ibv env="RDMAV_DRIVERS=${PLUGIN%-rdmav34.so} UVERBS_IOCTL_TRACE=1"
		[ -f "$PLUGIN" ] || { bad "no plug-in $PLUGIN in the guest"; continue; } ;;
	esac
	toggles=
	for f in $fns; do toggles="$toggles --toggle-collect=${f}_$fl"; done
	t0=$(cut -d' ' -f1 /proc/uptime)
	# LD_BIND_NOW: the first call through each PLT entry would count the
	# dynamic linker's lookup of the symbol, once, in the counted calls
	# (the library is called through its PLT; libibverbs' post and poll
	# are inline calls through the context's table).
	env LD_BIND_NOW=1 $env timeout $TMO valgrind --tool=callgrind --collect-atstart=no --compress-strings=no \
		--compress-pos=no $toggles --callgrind-out-file=cg.$lib \
		$B/mlx5_dp $lib $DEV "$MSGS" > $lib.out 2> $lib.err; rc=$?
	secs=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.0f", b - a }')
	if [ $rc -ne 0 ] || ! grep -q "^MLX5DP $lib " $lib.out; then
		bad "mlx5_dp $lib under callgrind: exit $rc"
		show $lib.out; tail -20 $lib.err | show
		continue
	fi
	grep "^MLX5DP $lib \|^MLX5DP-PROVIDER $lib " $lib.out
	ntrace=$(grep -c "^uverbs-ioctl: [^ ]* [a-z0-9-]*: " $lib.err)
	case $lib in
	plugin) if grep -q "^uverbs-ioctl: [^ ]* ioctl: QP.CREATE\|^uverbs-ioctl: [^ ]* [a-z-]*: CREATE_QP" $lib.err; then
			ok "mlx5_dp plugin: served by the plug-in ($ntrace commands through libuverbs-ioctl, QP.CREATE among them)"
		else
			bad "mlx5_dp plugin: no QP created through libuverbs-ioctl ($ntrace commands)"
		fi ;;
	ibv) if [ "$ntrace" = 0 ]; then
			ok "mlx5_dp ibv: served by libmlx5 (no command through libuverbs-ioctl)"
		else
			bad "mlx5_dp ibv: $ntrace commands through libuverbs-ioctl"
		fi ;;
	esac
	# fn= opens a function's lines; a cost line is "LINE COST" (one event,
	# Ir); after calls= it is the callee's inclusive cost.
	awk -v lib=$lib -v fl=$fl -v fns="$fns" '
		BEGIN { n = split(fns, f, " "); for (i = 1; i <= n; i++) want[f[i] "_" fl] = 1 }
		/^ob=/ { ob = substr($0, 4); sub(".*/", "", ob); next }
		/^fn=/ { fn = substr($0, 4); call = 0; next }
		/^calls=/ { call = 1; next }
		/^summary:/ { total = $2 }
		/^[0-9+*-]/ { if (fn in want) incl[fn] += $NF
			      if (!call) self[ob " " fn] += $NF
			      call = 0 }
		END { sum = 0
		      for (k in want) { printf "MLX5DP INSN %s %s %d\n", lib, k, incl[k]; sum += incl[k] }
		      printf "MLX5DP TOTAL %s %d %d\n", lib, sum, total
		      for (k in self) if (self[k] * 200 >= total)
			      printf "MLX5DP SELF %s %s %d\n", lib, k, self[k] }' cg.$lib > $lib.insn
	grep -v "^MLX5DP SELF" $lib.insn
	# where the instructions go: each function's own, 0.5 % and more
	grep "^MLX5DP SELF" $lib.insn | sort -k5 -n -r
	if awk '/^MLX5DP TOTAL/ { exit !($5 > 0 && $4 == $5) }' $lib.insn; then
		ok "mlx5_dp $lib under callgrind: every byte checked, the counted functions hold all $(awk '/^MLX5DP TOTAL/ { print $5 }' $lib.insn) instructions ($secs s)"
	else
		bad "mlx5_dp $lib: the counted functions' sum is not callgrind's total"
	fi
	nothing_left "mlx5_dp $lib"
done
rmmod mlx5_standin || bad "rmmod mlx5_standin"
echo "mlx5-dp-bench: $pass passed, $fail failed"
exit $fail
