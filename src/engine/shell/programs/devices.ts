// Block devices and volumes: the programs that make, wipe or repartition one write their device
// argument (a path effect, judged by the defaults' `/dev/…` entries). A file is not a device:
// `mkfs.ext4 disk.img` writes disk.img, which is everyday work. Reading tools (`fdisk -l`,
// `parted DEV print`, `wipefs` without -a, `sgdisk -p`) write nothing.
import { has, parseOptions } from "../options";
import type { Handler } from "../runner";
import { known } from "../words";
import { mentionAll, present } from "./common";
import type { EffectRow } from "./effect-row";

const MKFS_SPEC = { shortWithValue: "bCgGiIJlLmMNoOrETUdezt", longWithValue: ["type"] };
const writesDevice = (unless: string[] = [], when?: string[], shortWithValue = ""): EffectRow[] => [{ operands: "write", unless, ...(when && { when }), spec: { shortWithValue } }];

const FILESYSTEMS = ["ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "fat", "msdos", "exfat", "ntfs", "f2fs", "minix", "cramfs", "bfs", "jfs", "reiserfs", "hfsplus", "udf", "zfs", "nilfs2"];

/** Device writers as effect-table rows (src/engine/shell/programs/table.ts). */
export const DEVICE_ROWS: Record<string, EffectRow[]> = {
  mkfs: [{ operands: "write", spec: MKFS_SPEC }],
  ...Object.fromEntries(FILESYSTEMS.map((fs) => [`mkfs.${fs}`, [{ operands: "write", spec: MKFS_SPEC }]])),
  mke2fs: [{ operands: "write", spec: MKFS_SPEC }],
  mkdosfs: [{ operands: "write", spec: MKFS_SPEC }],
  mkntfs: [{ operands: "write", spec: MKFS_SPEC }],
  mkswap: writesDevice(["c", "check"], undefined, "LUp"),
  wipefs: writesDevice(["n", "no-act"], ["a", "all", "o", "offset"], "ot"),
  blkdiscard: writesDevice([], undefined, "olp"),
  fdisk: writesDevice(["l", "list", "s", "getsz", "x", "list-details"], undefined, "bcuLhHSt"),
  sfdisk: writesDevice(["l", "list", "d", "dump", "J", "json", "s", "show-size", "g", "show-geometry", "V", "verify", "list-types", "T", "n", "no-act", "b", "backup"], undefined, "NXY"),
  sgdisk: writesDevice(["p", "print", "i", "info", "v", "verify", "L", "list-types", "O", "print-mbr", "pretend", "P"], undefined, ""),
  gdisk: writesDevice(["l"]),
  cfdisk: writesDevice(),
  badblocks: writesDevice([], ["w", "n"], "bcdeiopt"),
  cryptsetup: [
    { sub: ["luksFormat"], operands: "write" },
    { sub: ["erase"], operands: "write" },
    { sub: ["luksErase"], operands: "write" },
    { sub: ["reencrypt"], operands: "write" },
  ],
  nvme: [
    { sub: ["format"], operands: "write" },
    { sub: ["sanitize"], operands: "write" },
  ],
};

const PARTED_READS = new Set(["print", "p", "unit", "help", "version", "align-check"]);

/** parted DEV [commands]: the device is written unless every command only reads (`print`). */
const parted: Handler = (inv, r) => {
  const p = parseOptions(inv.args, { shortWithValue: "a", longWithValue: ["align"] });
  r.emit(inv, present(["parted"], inv.args));
  if (has(p, "l", "list", "v", "version", "h", "help")) return;
  const [device, ...commands] = p.operands;
  if (!device) return;
  const words = commands.filter(known).map((a) => a.value);
  // No command: an interactive session, whose commands are not known here.
  const reads = commands.length > 0 && words.length === commands.length && words.every((w, i) => PARTED_READS.has(w) || (i > 0 && words[i - 1] === "unit"));
  if (reads) mentionAll(inv, r, [device]);
  else r.path(inv, device, "write", false, "parted");
};

export function deviceHandlers(): Record<string, Handler> {
  return { parted };
}
