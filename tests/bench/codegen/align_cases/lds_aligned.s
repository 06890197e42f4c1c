# Hand-written llvm-objdump output for vector_align_scan: LDS accesses at
# offsets that are multiples of their width.
# expect-findings: 0

k.hsaco:	file format elf64-amdgpu

Disassembly of section .text:

0000000000001900 <k>:
	v_lshlrev_b32_e32 v1, 4, v0                                // 000000001900: 24020084
	ds_write_b128 v1, v[2:5]                                   // 000000001904: D9BE0000 00000201
	ds_write_b128 v1, v[2:5] offset:1040                       // 00000000190C: D9BE0410 00000201
	ds_read_b64 v[2:3], v0 offset:1032                         // 000000001914: D8EC0408 02000000
	ds_read2_b32 v[4:5], v0 offset0:1 offset1:3                // 00000000191C: D86E0301 04000000
	ds_read_b32 v6, v0 offset:1028                             // 000000001924: D86C0404 06000000
	s_endpgm                                                   // 00000000192C: BF810000
