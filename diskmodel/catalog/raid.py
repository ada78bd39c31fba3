"""The catalog's RAID formats: the drives of an array site each takes, and the back-end
operations a read miss and a random or sequential write cost.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from diskmodel.catalog.figures import Sourced


class RaidFormat(Sourced):
    """A RAID format of one 8-drive array site and its back-end operations per host operation.

    `random_write_reads` + `random_write_writes` is the random-write penalty (RAID-5: 2+2,
    RAID-6: 3+3, RAID-10: 0+2); a full-stripe (sequential) write costs
    `sequential_write_ops_per_data_op` = (data + redundancy) / data drive writes per data-drive
    write.
    """

    label_fields: ClassVar[frozenset[str]] = frozenset({"level"})

    name: str
    level: Literal[5, 6, 10]
    data_drives: int = Field(ge=1)
    redundancy_drives: int = Field(ge=1)
    spare_drives: int = Field(ge=0)
    array_site_drives: int = Field(ge=1)
    read_miss_ops: float = Field(gt=0)
    random_write_reads: float = Field(ge=0)
    random_write_writes: float = Field(gt=0)
    sequential_write_ops_per_data_op: float = Field(ge=1)

    @property
    def drives(self) -> int:
        """Drives the format occupies in its array site: data + redundancy + spares."""
        return self.data_drives + self.redundancy_drives + self.spare_drives

    @property
    def usable_fraction(self) -> float:
        """Fraction of the array site's raw capacity that holds data: data / site drives."""
        return self.data_drives / self.array_site_drives

    @property
    def random_write_ops(self) -> float:
        """Back-end drive operations per random host write (the RAID write penalty)."""
        return self.random_write_reads + self.random_write_writes

    @model_validator(mode="after")
    def _fills_its_array_site(self) -> RaidFormat:
        if self.drives != self.array_site_drives:
            raise ValueError(
                f"data {self.data_drives} + redundancy {self.redundancy_drives} + spares "
                f"{self.spare_drives} = {self.drives} drives, but an array site has "
                f"{self.array_site_drives}"
            )
        return self
