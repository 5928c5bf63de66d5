//! The seccomp program bwrap installs (`--seccomp FD`, classic BPF, 8 bytes per
//! instruction). Capabilities are dropped, so most privileged calls already fail;
//! this covers what needs no capability: root's user keyring is shared with the
//! host (`add_key`, `request_key`, `keyctl` → EPERM, ORACLE.md hazard 3),
//! `open_by_handle_at` (the classic container escape), and every syscall made
//! through a foreign ABI (i386 `int 0x80`, x32), which a native-only list would miss.

/// `SECCOMP_RET_ALLOW`.
const RET_ALLOW: u32 = 0x7fff_0000;
/// `SECCOMP_RET_ERRNO | EPERM`.
const RET_EPERM: u32 = 0x0005_0001;
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const JGE_K: u16 = 0x35;
const RET_K: u16 = 0x06;
/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;

#[cfg(target_arch = "x86_64")]
mod arch {
    pub const AUDIT_ARCH: u32 = 0xc000_003e;
    /// add_key, request_key, keyctl, open_by_handle_at.
    pub const DENIED: &[(u32, &str)] = &[(248, "add_key"), (249, "request_key"), (250, "keyctl"), (304, "open_by_handle_at")];
    /// Syscall numbers at or above this are the x32 ABI.
    pub const X32_BIT: Option<u32> = Some(0x4000_0000);
}

#[cfg(target_arch = "aarch64")]
mod arch {
    pub const AUDIT_ARCH: u32 = 0xc000_00b7;
    pub const DENIED: &[(u32, &str)] = &[(217, "add_key"), (218, "request_key"), (219, "keyctl"), (265, "open_by_handle_at")];
    pub const X32_BIT: Option<u32> = None;
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod arch {
    pub const AUDIT_ARCH: u32 = 0;
    pub const DENIED: &[(u32, &str)] = &[];
    pub const X32_BIT: Option<u32> = None;
}

pub use arch::DENIED;

/// The syscall number of `keyctl` on this architecture (the self-test calls it).
pub fn keyctl_nr() -> Option<u32> {
    DENIED.iter().find(|(_, n)| *n == "keyctl").map(|(nr, _)| *nr)
}

/// The filter, or None on an architecture we have no syscall table for (the
/// oracle then refuses to run: a sandbox without it shares the host keyring).
pub fn program() -> Option<Vec<u8>> {
    if arch::DENIED.is_empty() {
        return None;
    }
    // (code, jt, jf, k); every jump's true branch goes to the final RET_EPERM.
    let mut ins: Vec<(u16, u8, u8, u32)> = vec![(LD_W_ABS, 0, 0, ARCH), (JEQ_K, 1, 0, arch::AUDIT_ARCH), (RET_K, 0, 0, RET_EPERM), (LD_W_ABS, 0, 0, NR)];
    let jumps = arch::DENIED.len() + usize::from(arch::X32_BIT.is_some());
    // Instructions after the jumps: RET_ALLOW then RET_EPERM.
    let first_jump = ins.len();
    let eperm_at = first_jump + jumps + 1;
    let push_jump = |ins: &mut Vec<(u16, u8, u8, u32)>, code: u16, k: u32| {
        let at = ins.len();
        ins.push((code, (eperm_at - at - 1) as u8, 0, k));
    };
    if let Some(bit) = arch::X32_BIT {
        push_jump(&mut ins, JGE_K, bit);
    }
    for (nr, _) in arch::DENIED {
        push_jump(&mut ins, JEQ_K, *nr);
    }
    ins.push((RET_K, 0, 0, RET_ALLOW));
    ins.push((RET_K, 0, 0, RET_EPERM));
    debug_assert_eq!(ins.len(), eperm_at + 1);
    let mut out = Vec::with_capacity(ins.len() * 8);
    for (code, jt, jf, k) in ins {
        out.extend_from_slice(&code.to_le_bytes());
        out.push(jt);
        out.push(jf);
        out.extend_from_slice(&k.to_le_bytes());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the program the way the kernel would, on one (arch, nr) pair.
    fn eval(prog: &[u8], arch: u32, nr: u32) -> u32 {
        let ins: Vec<(u16, u8, u8, u32)> =
            prog.chunks(8).map(|c| (u16::from_le_bytes([c[0], c[1]]), c[2], c[3], u32::from_le_bytes([c[4], c[5], c[6], c[7]]))).collect();
        let (mut pc, mut acc) = (0usize, 0u32);
        loop {
            let (code, jt, jf, k) = ins[pc];
            match code {
                LD_W_ABS => acc = if k == ARCH { arch } else { nr },
                JEQ_K => pc += usize::from(if acc == k { jt } else { jf }),
                JGE_K => pc += usize::from(if acc >= k { jt } else { jf }),
                RET_K => return k,
                _ => panic!("unknown opcode {code:#x}"),
            }
            pc += 1;
        }
    }

    #[test]
    fn keys_and_foreign_abis_are_denied_and_the_rest_allowed() {
        let Some(p) = program() else { return };
        for (nr, name) in DENIED {
            assert_eq!(eval(&p, arch::AUDIT_ARCH, *nr), RET_EPERM, "{name}");
        }
        assert_eq!(eval(&p, arch::AUDIT_ARCH, 0), RET_ALLOW, "read");
        assert_eq!(eval(&p, arch::AUDIT_ARCH, 59), RET_ALLOW, "execve");
        assert_eq!(eval(&p, 0x4000_0003, 59), RET_EPERM, "i386 ABI");
        if let Some(bit) = arch::X32_BIT {
            assert_eq!(eval(&p, arch::AUDIT_ARCH, bit | 250), RET_EPERM, "x32 keyctl");
        }
    }
}
