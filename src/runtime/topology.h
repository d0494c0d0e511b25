/* Which GPUs talk to each other fastest: groups of GPUs joined by NVLink or
 * under one PCIe switch, found from the machine (hwloc and CUDA) or imposed
 * by a string, since virtual machines flatten PCIe trees. */
#ifndef STARTRD_TOPOLOGY_H
#define STARTRD_TOPOLOGY_H

/** The environment variable that imposes the groups, e.g. "0,1;2,3". */
#define STARTRD_GPU_GROUPS_ENV "STARTRD_GPU_GROUPS"

/**
 * Groups from a string of GPU indices 0..ngpu-1, commas within a group,
 * semicolons between groups ("0,1;2,3").  On success group_of[g] is the
 * group of GPU g, groups numbered in order of appearance.
 * @return the number of groups, or -1 if @p spec does not name every GPU
 *         exactly once (group_of is then unspecified).
 */
int startrd_topology_parse(const char *spec, int ngpu, int *group_of);

/**
 * Groups of the CUDA devices devid[0..ngpu-1] as the machine is built: two
 * GPUs are in one group when CUDA reports native atomics between them (an
 * NVLink, not PCIe) or when their nearest common ancestor in hwloc's tree is
 * a PCIe switch (not a host bridge).  busid[g] receives the PCI bus id of
 * GPU g.  Without CUDA every GPU is a group of its own.
 * @return the number of groups, or -1 with a message if the machine could
 *         not be read.
 */
int startrd_topology_discover(int ngpu, const int *devid, int *group_of, char (*busid)[16]);

/**
 * Whether each of the CUDA devices devid[0..ngpu-1] can read and write the
 * others' memory (peer access), as a chase split over them needs.  0
 * without CUDA.
 */
int startrd_topology_peers_reachable(int ngpu, const int *devid);

#endif
