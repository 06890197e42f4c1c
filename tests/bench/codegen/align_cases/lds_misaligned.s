# Hand-written llvm-objdump output for vector_align_scan: LDS accesses at
# offsets that are not multiples of their width.
# expect-findings: 2

k.hsaco:	file format elf64-amdgpu

Disassembly of section .text:

0000000000001900 <k>:
	v_lshlrev_b32_e32 v1, 4, v0                                // 000000001900: 24020084
	ds_write_b128 v1, v[2:5] offset:12                         // 000000001904: D9BE000C 00000201
	ds_read_b64 v[2:3], v0 offset:1028                         // 00000000190C: D8EC0404 02000000
	ds_read2_b64 v[4:7], v0 offset0:1 offset1:3                // 000000001914: D8EE0301 04000000
	ds_read_b128 v[0:3], v1 offset:16                          // 00000000191C: D9FE0010 00000001
	ds_read_b32 v6, v0 offset:1026                             // 000000001924: D86C0402 06000000
	s_endpgm                                                   // 00000000192C: BF810000
