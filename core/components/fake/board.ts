// The fake board (rdk:builtin:fake): the board model on the IO it is given (the simulated board
// by default), so levels, duty and frequency can be seen on the other side of the wire, looped
// pins read each other and interrupts count real edges.
import type { ModelRegistration } from "../../resource/index.js";
import { FAKE_MODEL } from "../api-names.js";
import type { Board } from "../apis/board.js";
import { boardModel, type BoardModelOptions } from "../board/board-model.js";

export { ANALOG_WRITE_MAX, type BoardModelOptions } from "../board/board-model.js";

export function fakeBoardModel(options: BoardModelOptions): ModelRegistration<Board> {
  return boardModel({ model: FAKE_MODEL, ioForBoard: options.ioForBoard });
}
