#!/bin/sh
# A user's script for scripts/vm-run.sh --dev mlx5 (kernel/vm-run runs it):
# the project's rc_pingpong serves on mlx5_0, Debian's ibv_rc_pingpong
# (stock libmlx5) connects from mlx5_1, 20 round trips with the bytes
# checked; each side's output, and the client's status as ours.
cd /tmp || exit 1
rc_pingpong -d mlx5_0 -g 0 -n 20 -p 18600 > server.out 2>&1 &
server=$!
# Connect once the server listens (port 18600 is 48A8), 30 s at most.
t=0
until awk '$4 == "0A" && $2 ~ /:48A8$/ { f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
	t=$((t + 1)); [ $t -gt 300 ] && break
	sleep 0.1
done
ibv_rc_pingpong -d mlx5_1 -g 0 -n 20 -c -p 18600 127.0.0.1; client=$?
wait $server; srv=$?
sed 's/^/[server] /' server.out
echo "server exit $srv, client exit $client"
[ $srv = 0 ] && [ $client = 0 ]
