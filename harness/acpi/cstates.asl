/*
 * SSDT for the q35+c2 board variant: every CPU object gets a _CST with
 * C1 (HLT through FFixedHW) and C2 (a SystemIO read), so that acpi_idle
 * offers a C2.  Without ARAT the LAPIC timer stops in any state deeper
 * than C1, so idle CPUs in C2 hand their tick to the broadcast device.
 *
 * QEMU names the CPU objects \_SB.CPUS.Cnnn (hex); the harness writes
 * cstates-cpus.asl with one Scope per CPU of the entry (an External for
 * a CPU that does not exist would fail the table load).
 */
DefinitionBlock ("", "SSDT", 2, "THTICK", "CSTATES", 1)
{
    Scope (\_SB)
    {
        Method (THCS, 0, NotSerialized)
        {
            Return (Package (0x03)
            {
                0x02,
                Package (0x04)
                {
                    ResourceTemplate ()
                    {
                        Register (FFixedHW, 0x01, 0x02, 0x0000000000000000, 0x01, )
                    },
                    0x01,
                    0x01,
                    0x03E8
                },
                /* Latency 50 us: acpi_idle drops a C2 slower than 100 us. */
                Package (0x04)
                {
                    ResourceTemplate ()
                    {
                        Register (SystemIO, 0x08, 0x00, 0x0000000000000614, , )
                    },
                    0x02,
                    0x32,
                    0x01F4
                }
            })
        }
    }

    Include ("cstates-cpus.asl")
}
