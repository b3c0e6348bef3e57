// Behavioural model of the Lattice ECP5 DP16KD block RAM, for the subset netmeas instantiates
// (hdl/src/common/sram_ecp5.rs): one clock, both ports of one data width (DATA_WIDTH_A = DATA_WIDTH_B in
// 1, 2, 4, 9, 18), chip selects 0 with CSDECODE 0b000, resets unused, WRITEMODE NORMAL. Written from Lattice
// TN1264 (ECP5 and ECP5-5G Memory Usage Guide), not from any vendor model:
//   - a port of width class s (x1: 0, x2: 1, x4: 2, x9: 3, x18: 4) addresses word AD[13:s];
//   - x18 writes the low 9 bits when AD0 is set and the high 9 when AD1 is set (byte enables);
//   - data of width TW sits in DI/DO[TW-1:0];
//   - a read registers its word at the clock edge (REGMODE NOREG: DO shows it after that edge); REGMODE
//     OUTREG adds the output register, so DO shows it one edge later (OCE enables that register).
// A read of the word the other port writes in the same cycle returns the old word here; the netmeas RAMs
// never rely on it (their co-simulation flavour returns x there) and the test avoids it.
// Used only by hdl/tests/ecp5_bram.rs.
/* verilator lint_off UNUSEDPARAM */
/* verilator lint_off UNUSEDSIGNAL */
module DP16KD(
  input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input CEA, OCEA, CLKA, WEA, RSTA,
  input CSA2, CSA1, CSA0,
  output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input CEB, OCEB, CLKB, WEB, RSTB,
  input CSB2, CSB1, CSB0,
  output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
  parameter DATA_WIDTH_A = 18;
  parameter DATA_WIDTH_B = 18;
  parameter REGMODE_A = "NOREG";
  parameter REGMODE_B = "NOREG";
  parameter RESETMODE = "SYNC";
  parameter ASYNC_RESET_RELEASE = "SYNC";
  parameter CSDECODE_A = "0b000";
  parameter CSDECODE_B = "0b000";
  parameter WRITEMODE_A = "NORMAL";
  parameter WRITEMODE_B = "NORMAL";
  parameter GSR = "ENABLED";

  localparam S = DATA_WIDTH_A == 1 ? 0 : DATA_WIDTH_A == 2 ? 1 : DATA_WIDTH_A == 4 ? 2 : DATA_WIDTH_A == 9 ? 3 : 4;
  wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0};
  wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};
  wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
  wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
  reg [17:0] mem [0:16383];
  reg [17:0] lat_a, lat_b, out_a, out_b;
  wire [13:0] wa = ada >> S;
  wire [13:0] wb = adb >> S;
  // The bits of a word a write changes: all of the width, or x18's enabled bytes.
  function [17:0] wmask(input [13:0] ad);
    if (S == 4) wmask = {{9{ad[1]}}, {9{ad[0]}}};
    else wmask = (18'd1 << DATA_WIDTH_A) - 18'd1;
  endfunction
  integer i;
  initial begin
    if (DATA_WIDTH_A != DATA_WIDTH_B) $fatal(1, "DP16KD model: both ports must have one width");
    for (i = 0; i < 16384; i = i + 1) mem[i] = 0;
    lat_a = 0; lat_b = 0; out_a = 0; out_b = 0;
  end
  always @(posedge CLKA) begin
    if (CEA) begin
      lat_a <= mem[wa];
      if (WEA) mem[wa] <= (mem[wa] & ~wmask(ada)) | (dia & wmask(ada));
    end
    if (OCEA) out_a <= lat_a;
  end
  always @(posedge CLKB) begin
    if (CEB) begin
      lat_b <= mem[wb];
      if (WEB) mem[wb] <= (mem[wb] & ~wmask(adb)) | (dib & wmask(adb));
    end
    if (OCEB) out_b <= lat_b;
  end
  wire [17:0] doa = REGMODE_A == "OUTREG" ? out_a : lat_a;
  wire [17:0] dob = REGMODE_B == "OUTREG" ? out_b : lat_b;
  assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa;
  assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob;
endmodule
