// Simulation models of the cells in synth/cells45.lib (NanGate FreePDK45
// names and pins), for running the testbenches on synthesized netlists.
`default_nettype none
// verilator lint_off DECLFILENAME
module INV_X1   (input wire A, output wire ZN); assign ZN = ~A; endmodule
module BUF_X1   (input wire A, output wire Z); assign Z = A; endmodule
module NAND2_X1 (input wire A1, A2, output wire ZN); assign ZN = ~(A1 & A2); endmodule
module NOR2_X1  (input wire A1, A2, output wire ZN); assign ZN = ~(A1 | A2); endmodule
module AND2_X1  (input wire A1, A2, output wire ZN); assign ZN = A1 & A2; endmodule
module OR2_X1   (input wire A1, A2, output wire ZN); assign ZN = A1 | A2; endmodule
module NAND3_X1 (input wire A1, A2, A3, output wire ZN); assign ZN = ~(A1 & A2 & A3); endmodule
module NOR3_X1  (input wire A1, A2, A3, output wire ZN); assign ZN = ~(A1 | A2 | A3); endmodule
module AOI21_X1 (input wire A, B1, B2, output wire ZN); assign ZN = ~(A | (B1 & B2)); endmodule
module OAI21_X1 (input wire A, B1, B2, output wire ZN); assign ZN = ~(A & (B1 | B2)); endmodule
module AOI22_X1 (input wire A1, A2, B1, B2, output wire ZN); assign ZN = ~((A1 & A2) | (B1 & B2)); endmodule
module OAI22_X1 (input wire A1, A2, B1, B2, output wire ZN); assign ZN = ~((A1 | A2) & (B1 | B2)); endmodule
module XOR2_X1  (input wire A, B, output wire Z); assign Z = A ^ B; endmodule
module XNOR2_X1 (input wire A, B, output wire ZN); assign ZN = ~(A ^ B); endmodule
module MUX2_X1  (input wire A, B, S, output wire Z); assign Z = S ? B : A; endmodule
module DFFR_X1  (input wire D, RN, CK, output reg Q, output wire QN);
  always @(posedge CK or negedge RN) if (!RN) Q <= 1'b0; else Q <= D;
  assign QN = ~Q;
endmodule
// verilator lint_on DECLFILENAME
