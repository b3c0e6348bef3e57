//! Delay line: a word and its valid bit, `n` cycles late (RTL: `hdl::common::delay::DelayLine`). The valid
//! bits clear on reset, the data registers do not: before the first reset, and for a word whose valid bit is
//! low, the output word is unknown (`None`).

#[derive(Debug, Clone, Copy, Default)]
pub struct DelayInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub in_data: u128,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DelayOutputs {
    /// `None` before the first reset has reached the last stage.
    pub out_valid: Option<bool>,
    /// The word when `out_valid` is true.
    pub out_data: Option<u128>,
}

#[derive(Debug, Clone)]
pub struct DelayModel {
    /// Stage `i`'s valid bit (None: unknown) and word.
    stages: Vec<(Option<bool>, u128)>,
}

impl DelayModel {
    /// `n ≥ 1` stages.
    pub fn new(n: usize) -> Self {
        DelayModel { stages: vec![(None, 0); n.max(1)] }
    }
    pub fn step(&mut self, i: &DelayInputs) -> DelayOutputs {
        let (v, d) = *self.stages.last().expect("at least one stage");
        let out = DelayOutputs { out_valid: v, out_data: d.into() };
        self.stages.rotate_right(1);
        self.stages[0] = (Some(i.in_valid), i.in_data);
        if i.reset {
            self.stages.iter_mut().for_each(|s| s.0 = Some(false));
        }
        DelayOutputs { out_data: out.out_data.filter(|_| out.out_valid == Some(true)), ..out }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_come_out_n_cycles_late_and_reset_clears_the_valid_bits() {
        let mut m = DelayModel::new(3);
        let step = |m: &mut DelayModel, reset, v, d| m.step(&DelayInputs { reset, in_valid: v, in_data: d });
        assert_eq!(step(&mut m, true, true, 1).out_valid, None);
        for k in 0..3 {
            let o = step(&mut m, false, true, 10 + k);
            assert_eq!(o.out_valid, Some(false), "stage {k} was reset");
        }
        assert_eq!(step(&mut m, false, false, 0).out_data, Some(10));
        assert_eq!(step(&mut m, true, false, 0).out_data, Some(11));
        // The reset cleared the words in flight (12 and the idle one).
        assert_eq!(step(&mut m, false, false, 0), DelayOutputs { out_valid: Some(false), out_data: None });
    }
}
