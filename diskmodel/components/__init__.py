"""Hardware components: each module turns catalog figures + a workload into service demands.

One module per part of the I/O path (DOMAIN.md "The hardware being modelled"): host adapter
ports, the processor complex, cache and NVS, device adapter (DA) pairs, RAID ranks and
drives. They know hardware and return plain numbers in seconds and bytes; they know nothing of
queueing networks (that is `diskmodel.model`) or reports.
"""
