import { describe, expect, it } from "vitest";
import { createRollbackJudge } from "../../../core/index.js";

const rules = { startTimeoutMs: 10_000, probationMs: 60_000, maxCrashes: 3 };

describe("the rollback judge of a newly activated svc-server", () => {
  it("passes a version that serves and stays up through its probation", () => {
    const judge = createRollbackJudge("2.0.0", 0, rules);
    expect(judge.started(500).kind).toBe("on-probation");
    expect(judge.verdict(59_999).kind).toBe("on-probation");
    expect(judge.verdict(60_000).kind).toBe("passed");
  });

  it("rolls back a version that does not serve within the start timeout, saying so", () => {
    const judge = createRollbackJudge("3.0.0", 0, rules);
    const verdict = judge.startTimedOut(10_000);
    expect(verdict).toEqual({ kind: "rollback", reason: expect.stringContaining("did not serve within the start timeout") });
    expect(verdict.kind === "rollback" && verdict.reason).toContain("3.0.0");
  });

  it("rolls back a version that stops three times in its first minutes, naming the last exit", () => {
    const judge = createRollbackJudge("3.0.0", 0, rules);
    expect(judge.exited(1_000, "exited with code 1").kind).toBe("on-probation");
    expect(judge.exited(2_000, "exited with code 1").kind).toBe("on-probation");
    const verdict = judge.exited(3_000, "exited with code 7: boom");
    expect(verdict.kind).toBe("rollback");
    expect(verdict.kind === "rollback" && verdict.reason).toMatch(/stopped 3 times.*exited with code 7: boom/);
  });

  it("does not count exits after the probation against the version", () => {
    const judge = createRollbackJudge("2.0.0", 0, rules);
    judge.started(100);
    judge.exited(70_000, "exited with code 1");
    judge.exited(80_000, "exited with code 1");
    expect(judge.exited(90_000, "exited with code 1").kind).toBe("passed");
  });

  it("keeps the verdict once it is a rollback", () => {
    const judge = createRollbackJudge("3.0.0", 0, rules);
    judge.startTimedOut(10_000);
    expect(judge.started(11_000).kind).toBe("rollback");
    expect(judge.verdict(1_000_000).kind).toBe("rollback");
  });
});
