//! The control plane at the end of a measurement period, as the trace runners of the cores with ping-pong
//! banks drive it (`run_trace` of the heavy-hitter, reordering and hybrid tops): at every period boundary
//! of trace time, and after the last packet, it holds the input until the pipeline is quiet, reads every
//! busy register until the walks of the period before are over, toggles `bank` and writes what starts the
//! walks (`flush`, `dump`); traffic resumes into the other banks as soon as those writes are out. After the
//! last packet's walks it polls the busy registers (every 8 cycles) until they read 0.
//!
//! One [`CsrDriver`] per CSR port of the top (the hybrid has three): the runner hands this cycle's port
//! requests to [`PeriodEnd::drive`] before it steps the simulation and the ports' answers to
//! [`PeriodEnd::observe`] after it.

use crate::csr_driver::{CsrDriver, CsrPort};

/// Where a period end stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    /// Packets flow.
    Streaming,
    /// At a boundary: waiting for the pipeline to be quiet.
    Quieting,
    /// The busy registers were read; their answers decide.
    Polled,
    /// The walks were over: `bank` toggled and the walk starts queued.
    Swapping,
    /// After the last packet: polling until the final walks are over.
    Draining,
    /// The final walks are over.
    Over,
}

/// See the [module docs](self).
#[derive(Debug, Clone)]
pub struct PeriodEnd {
    drivers: Vec<CsrDriver>,
    busy: Vec<u8>,
    quiet_to_poll: u32,
    period: Option<u64>,
    next_at: Option<u64>,
    phase: Phase,
    polled_at: u64,
    last: bool,
    bank: u32,
    /// Period ends done (one per boundary crossed, and the final one).
    pub flushes: u64,
}

impl PeriodEnd {
    /// Ports driven by `drivers` (their settings already loaded), busy register `busy[p]` on port `p`; a
    /// boundary every `period` of trace time from `first_ts` (none: only the end); the busy registers are
    /// read once the runner has seen `quiet_to_poll` quiet cycles.
    pub fn new(
        drivers: Vec<CsrDriver>,
        busy: Vec<u8>,
        period: Option<u64>,
        first_ts: Option<u64>,
        quiet_to_poll: u32,
    ) -> Self {
        assert_eq!(drivers.len(), busy.len(), "one busy register per CSR port");
        PeriodEnd {
            drivers,
            busy,
            quiet_to_poll,
            period,
            next_at: period.zip(first_ts).map(|(p, t)| t + p),
            phase: Phase::Streaming,
            polled_at: 0,
            last: false,
            bank: 0,
            flushes: 0,
        }
    }

    /// The start of cycle `now`: `next_ts` is the next packet's trace time (`None`: all are in), `quiet` the
    /// runner's count of quiet cycles, `ports` this cycle's CSR requests (one per driver). Sets the requests
    /// and says whether a packet may enter in this cycle.
    pub fn drive<P: CsrPort>(&mut self, now: u64, next_ts: Option<u64>, quiet: u32, ports: &mut [P]) -> bool {
        let boundary = match (self.next_at, next_ts) {
            (Some(at), Some(t)) => t >= at,
            (_, None) => !self.last,
            _ => false,
        };
        if self.phase == Phase::Streaming && boundary && self.idle() && now > 8 {
            self.phase = Phase::Quieting;
        }
        let poll = (self.phase == Phase::Quieting && quiet >= self.quiet_to_poll)
            || (self.phase == Phase::Draining && self.idle() && now >= self.polled_at + 8);
        let mut wrote = false;
        for ((port, drv), &addr) in ports.iter_mut().zip(&mut self.drivers).zip(&self.busy) {
            if poll {
                drv.read(port, addr);
            } else {
                wrote |= drv.write_next(port);
            }
        }
        if poll {
            self.polled_at = now;
            self.phase = self.phase.max(Phase::Polled);
        }
        if self.phase == Phase::Swapping && !wrote && self.idle() {
            self.flushes += 1;
            if next_ts.is_none() {
                (self.phase, self.last, self.polled_at) = (Phase::Draining, true, now);
            } else {
                self.phase = Phase::Streaming;
                self.next_at = self.next_at.zip(self.period).map(|(at, p)| at + p);
            }
        }
        self.phase == Phase::Streaming && !boundary && self.idle() && now > 8
    }

    /// The end of cycle `now`: `answers` are the ports' `(rd_valid, rd_data)`; `writes(bank)` gives, per
    /// port, the writes that end a period into `bank` (the toggled bank first).
    pub fn observe(&mut self, now: u64, answers: &[(bool, u32)], writes: impl FnOnce(u32) -> Vec<Vec<(u8, u32)>>) {
        if now != self.polled_at + 1 || !answers.iter().all(|a| a.0) {
            return;
        }
        let done = answers.iter().all(|a| a.1 == 0);
        match (self.phase, done) {
            (Phase::Polled, true) => {
                self.bank ^= 1;
                for (drv, ws) in self.drivers.iter_mut().zip(writes(self.bank)) {
                    ws.into_iter().for_each(|(a, v)| drv.push(a, v));
                }
                self.phase = Phase::Swapping;
            }
            (Phase::Polled, false) => self.phase = Phase::Quieting,
            (Phase::Draining, true) => self.phase = Phase::Over,
            _ => {}
        }
    }

    /// The final walks are over and the runner has seen 8 quiet cycles since.
    pub fn over(&self, quiet: u32) -> bool {
        self.phase == Phase::Over && quiet >= 8
    }

    /// A short description for a run that does not end.
    pub fn describe(&self) -> String {
        format!("period end {:?}, {} done", self.phase, self.flushes)
    }

    fn idle(&self) -> bool {
        self.drivers.iter().all(CsrDriver::is_idle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::common::csr::{CsrLayout, CsrRequest};

    fn driver() -> CsrDriver {
        CsrDriver::new(&CsrLayout::new(vec![("bank".into(), 0), ("flush".into(), 0)], vec!["busy".into()]))
    }

    /// Two packets a period apart and a core whose walk stays busy for 20 cycles: the driver holds the
    /// second packet, polls until the walk of nothing before is over, swaps, lets the packet in, and after
    /// it swaps again and drains; the writes carry the toggled bank.
    #[test]
    fn holds_polls_swaps_and_drains() {
        let mut pe = PeriodEnd::new(vec![driver()], vec![0x80], Some(100), Some(0), 2);
        let ts = [0u64, 150];
        let (mut next, mut quiet, mut busy_until, mut log) = (0usize, 0u32, 0u64, Vec::new());
        let mut pending_read = false;
        for now in 0..400u64 {
            let mut port = [CsrRequest::default()];
            let may = pe.drive(now, ts.get(next).copied(), quiet, &mut port);
            let sent = may && next < ts.len();
            if sent {
                log.push(format!("packet {next} at {now}"));
                next += 1;
            }
            if port[0].wr_en {
                log.push(format!("write {:#x}={} at {now}", port[0].addr, port[0].wr_data));
                if port[0].addr == 1 {
                    busy_until = now + 20;
                }
            }
            let answer = (pending_read, (now <= busy_until) as u32);
            pending_read = port[0].rd_en;
            pe.observe(now, &[answer], |bank| vec![vec![(0, bank), (1, 1)]]);
            quiet = if sent { 0 } else { quiet + 1 };
            if pe.over(quiet) {
                log.push(format!("over at {now}"));
                break;
            }
        }
        let text = log.join("\n");
        assert!(text.contains("packet 0 at 9\n"), "{text}");
        assert!(text.contains("write 0x0=1"), "{text}");
        assert!(text.contains("write 0x0=0"), "the second period end toggles back: {text}");
        assert_eq!(pe.flushes, 2, "{text}");
        assert!(log.last().unwrap().starts_with("over at"), "{text}");
        // The second packet enters only after the first swap's writes, and the final writes wait for the
        // first walk (20 cycles busy) to be over.
        let at = |what: &str| log.iter().position(|l| l.starts_with(what)).unwrap();
        assert!(at("write 0x0=1") < at("packet 1") && at("packet 1") < at("write 0x0=0"), "{text}");
        let t = |what: &str| -> u64 { log[at(what)].rsplit(' ').next().unwrap().parse().unwrap() };
        assert!(t("write 0x0=0") > t("write 0x1=1") + 20, "{text}");
    }
}
