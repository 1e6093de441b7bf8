#!/bin/sh
# Open MPI's rsh agent between the test guests, which have no SSH: busybox
# nc carries one shell line to the other guest and that line's output back.
#
#   nc -ll -p PORT -e /opt/uvio/mpi-rsh.sh    on a guest that takes commands:
#                                             each connection's first line
#                                             runs there under sh
#   mpi-rsh.sh HOST COMMAND...                what mpirun runs
#                                             (--mca plm_rsh_agent)
# UVIO_MPI_RSH_PORT names the port (2222).
if [ $# = 0 ]; then
	read -r line
	exec sh -c "$line"
fi
host=$1
shift
echo "$*" | exec nc "$host" "${UVIO_MPI_RSH_PORT:-2222}"
