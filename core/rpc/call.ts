// What a handler knows about the call it is serving, whatever the transport: whether it has been
// cancelled (by the client, by CancelOperation, or by shutdown), and the session it belongs to.

export interface CallInfo {
  /** The RPC's full method name, e.g. "/viam.component.motor.v1.MotorService/GoFor". */
  readonly method: string;
  /** The client's session id (metadata "viam-sid"), "" when the call has none. */
  readonly sessionId: string;
  cancelled(): boolean;
  /** Runs `fn` once when the call is cancelled; returns a function that forgets it. */
  onCancel(fn: () => void): () => void;
  /**
   * A handler of a safety-monitored method (motor SetPower/GoFor/GoTo/SetRPM, servo Move) says
   * which actuator it drove, so the session's safety stop can stop it when heartbeats lapse.
   */
  drove(resource: { stop(): Promise<void> }, name: string): void;
}
