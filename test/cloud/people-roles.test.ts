// People and roles: owners add people and set roles (never demoting the last owner), operators
// edit machines but not people or keys, viewers only read, and nobody sees another organisation.
// In this process, so a second organisation can be made in the store (a second `init` is refused).
import { ConnectError, createClient, type Client } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { CloudService, Role } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { createMachine, createLocation, createOrganization, createUser, addMember } from "../../targets/cloud/storage/fleet.js";
import { hashPassword } from "../../targets/cloud/storage/secrets.js";
import { bearer, cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
let owner: { app: Client<typeof AppService>; people: Client<typeof CloudService> };
let partId: string;
let machineId: string;
const other = { organizationId: "", locationId: "", machineId: "", partId: "" };

/** Clients signed in as a person, with their email and password. */
async function asPerson(email: string, password: string) {
  const auth = createClient(AuthService, cloudTransport(cloud.url));
  const { accessToken } = await auth.authenticate({ entity: email, credentials: { type: "password", payload: password } });
  const transport = cloudTransport(cloud.url, "grpc", [bearer(accessToken)]);
  return { app: createClient(AppService, transport), people: createClient(CloudService, transport) };
}

async function codeOf(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "ok",
    (thrown: unknown) => ConnectError.from(thrown).message,
  );
}

beforeAll(async () => {
  cloud = await startInProcessCloud();
  const key = cloud.init.api_key;
  owner = { app: await signedInClient(AppService, cloud.url, key), people: await signedInClient(CloudService, cloud.url, key) };
  machineId = (await owner.app.newRobot({ name: "rover", location: cloud.init.location_id })).id;
  partId = (await owner.app.getRobotParts({ robotId: machineId })).parts[0]!.id;
  // A second organisation, with a machine and a person of its own.
  const db = cloud.server.context.store.db;
  const now = cloud.clock.now();
  other.organizationId = await createOrganization(db, { name: "elsewhere", now });
  other.locationId = await createLocation(db, { organizationId: other.organizationId, name: "yard", now });
  const made = await createMachine(db, { locationId: other.locationId, organizationId: other.organizationId, name: "digger", editedBy: "svc-cloud", now });
  other.machineId = made.machineId;
  other.partId = made.partId;
  const userId = await createUser(db, { email: "stranger@example.com", passwordHash: hashPassword("stranger password"), now });
  await addMember(db, { organizationId: other.organizationId, userId, role: "owner", now });
});
afterAll(() => cloud?.stop());

describe("owners manage people", () => {
  it("adds people with a role; a short password or a taken email is refused", async () => {
    const organizationId = cloud.init.organization_id;
    const viewer = await owner.people.addUser({ organizationId, email: "Viewer@example.com", password: "viewer password", role: Role.VIEWER });
    expect(viewer.user).toMatchObject({ email: "viewer@example.com", role: Role.VIEWER });
    await owner.people.addUser({ organizationId, email: "operator@example.com", password: "operator password", role: Role.OPERATOR });
    await expect(owner.people.addUser({ organizationId, email: "short@example.com", password: "1234567", role: Role.VIEWER })).rejects.toThrow(/\[invalid_argument\] password: at least 8 characters/);
    await expect(owner.people.addUser({ organizationId, email: "viewer@example.com", password: "another password", role: Role.VIEWER })).rejects.toThrow(/\[already_exists\]/);
    await expect(owner.people.addUser({ organizationId, email: "x@example.com", password: "long enough", role: Role.UNSPECIFIED })).rejects.toThrow(/role: must be ROLE_OWNER/);
    const { users } = await owner.people.listUsers({ organizationId });
    expect(users.map((u) => [u.email, u.role]).sort()).toEqual([
      ["operator@example.com", Role.OPERATOR],
      ["owner@example.com", Role.OWNER],
      ["viewer@example.com", Role.VIEWER],
    ]);
  });

  it("never demotes the organisation's last owner", async () => {
    const organizationId = cloud.init.organization_id;
    const { users } = await owner.people.listUsers({ organizationId });
    const first = users.find((u) => u.email === "owner@example.com")!;
    await expect(owner.people.setRole({ organizationId, userId: first.id, role: Role.OPERATOR })).rejects.toThrow(
      /\[failed_precondition\] owner@example.com is the organisation's last owner: make another member owner first/,
    );
    const second = await owner.people.addUser({ organizationId, email: "second-owner@example.com", password: "second password", role: Role.OWNER });
    await owner.people.setRole({ organizationId, userId: first.id, role: Role.OPERATOR });
    await expect(owner.people.setRole({ organizationId, userId: second.user!.id, role: Role.VIEWER })).rejects.toThrow(/last owner/);
    await owner.people.setRole({ organizationId, userId: first.id, role: Role.OWNER });
    await expect(owner.people.setRole({ organizationId, userId: "no-such-user", role: Role.VIEWER })).rejects.toThrow(/\[not_found\]/);
  });
});

describe("roles", () => {
  it("a viewer reads but cannot edit", async () => {
    const viewer = await asPerson("viewer@example.com", "viewer password");
    expect((await viewer.app.listRobots({ locationId: cloud.init.location_id })).robots.map((r) => r.name)).toEqual(["rover"]);
    expect((await viewer.app.getRobotPart({ id: partId })).part?.id).toBe(partId);
    const needsOperator = /\[permission_denied\] .*needs the operator role \(the caller is viewer\)/;
    await expect(viewer.app.updateRobotPart({ id: partId, name: "rover-main", robotConfig: {} })).rejects.toThrow(needsOperator);
    await expect(viewer.app.newRobot({ name: "sneaky", location: cloud.init.location_id })).rejects.toThrow(needsOperator);
    await expect(viewer.app.deleteRobot({ id: machineId })).rejects.toThrow(needsOperator);
    await expect(viewer.app.markPartForRestart({ partId })).rejects.toThrow(needsOperator);
    await expect(viewer.app.newRobotPart({ robotId: machineId, partName: "extra" })).rejects.toThrow(needsOperator);
  });

  it("an operator edits machines but manages neither people nor keys", async () => {
    const operator = await asPerson("operator@example.com", "operator password");
    const organizationId = cloud.init.organization_id;
    await operator.app.updateRobotPart({ id: partId, name: "rover-main", robotConfig: { components: [{ name: "s", api: "rdk:component:sensor", model: "fake" }] } });
    await operator.app.updateRobot({ id: machineId, name: "rover", location: cloud.init.location_id });
    const ownerOnly = /\[permission_denied\] .*needs the owner role \(the caller is operator\)/;
    const orgAuthorization = { authorizationType: "role", authorizationId: "organization_owner", resourceType: "organization", resourceId: organizationId, organizationId };
    const refused = await Promise.all([
      codeOf(operator.people.addUser({ organizationId, email: "new@example.com", password: "long enough", role: Role.VIEWER })),
      codeOf(operator.people.setRole({ organizationId, userId: "anyone", role: Role.OWNER })),
      codeOf(operator.people.createInvitation({ organizationId, email: "new@example.com", role: Role.OWNER })),
      codeOf(operator.app.createOrganizationInvite({ organizationId, email: "new@example.com", authorizations: [{ ...orgAuthorization, authorizationId: "organization_viewer" }] })),
      codeOf(operator.app.createKey({ authorizations: [orgAuthorization], name: "mine" })),
      codeOf(operator.app.listKeys({ orgId: organizationId })),
      codeOf(operator.app.deleteKey({ id: cloud.init.api_key.id })),
      codeOf(operator.app.getRobotAPIKeys({ robotId: machineId })),
      codeOf(operator.app.createLocation({ organizationId, name: "annex" })),
    ]);
    for (const outcome of refused) expect(outcome).toMatch(ownerOnly);
  });
});

describe("organisations", () => {
  it("a person of one organisation sees nothing of another, as if it did not exist", async () => {
    const stranger = await asPerson("stranger@example.com", "stranger password");
    expect((await stranger.app.listOrganizations({})).organizations.map((o) => o.id)).toEqual([other.organizationId]);
    const outcomes = await Promise.all([
      codeOf(stranger.app.getOrganization({ organizationId: cloud.init.organization_id })),
      codeOf(stranger.app.listLocations({ organizationId: cloud.init.organization_id })),
      codeOf(stranger.app.listOrganizationMembers({ organizationId: cloud.init.organization_id })),
      codeOf(stranger.app.getLocation({ locationId: cloud.init.location_id })),
      codeOf(stranger.app.listRobots({ locationId: cloud.init.location_id })),
      codeOf(stranger.app.getRobot({ id: machineId })),
      codeOf(stranger.app.getRobotParts({ robotId: machineId })),
      codeOf(stranger.app.getRobotPart({ id: partId })),
      codeOf(stranger.app.updateRobotPart({ id: partId, name: "x", robotConfig: {} })),
      codeOf(stranger.app.deleteRobot({ id: machineId })),
      codeOf(stranger.app.newRobot({ name: "intruder", location: cloud.init.location_id })),
      codeOf(stranger.app.listMachineSummaries({ organizationId: cloud.init.organization_id })),
      codeOf(stranger.app.deleteKey({ id: cloud.init.api_key.id })),
      codeOf(stranger.people.listUsers({ organizationId: cloud.init.organization_id })),
      codeOf(stranger.people.addUser({ organizationId: cloud.init.organization_id, email: "mole@example.com", password: "long enough", role: Role.OWNER })),
    ]);
    for (const outcome of outcomes) expect(outcome).toMatch(/^\[not_found\] /);
    // Moving a machine into another organisation's location is refused alike.
    await expect(owner.app.updateRobot({ id: machineId, name: "rover", location: other.locationId })).rejects.toThrow(/\[not_found\] location/);
    await expect(owner.app.getRobot({ id: other.machineId })).rejects.toThrow(/\[not_found\]/);
    await expect(owner.app.getRobotPart({ id: other.partId })).rejects.toThrow(/\[not_found\]/);
  });
});

describe("invitations", () => {
  const accept = (token: string, password?: string) => createClient(CloudService, cloudTransport(cloud.url)).acceptInvitation({ token, password });
  const invalid = "[unauthenticated] this invitation is not valid: it is wrong, expired or already used";

  it("admits a new person once, with the invitation's role; wrong and used tokens are refused alike", async () => {
    const organizationId = cloud.init.organization_id;
    const made = await owner.people.createInvitation({ organizationId, email: "newcomer@example.com", role: Role.OPERATOR });
    expect(made.token).toMatch(/^[a-z0-9]{64}$/);
    expect(Number(made.invitation!.expiresOn!.seconds - made.invitation!.createdOn!.seconds)).toBe(7 * 24 * 60 * 60);
    await expect(accept(made.token)).rejects.toThrow(/\[invalid_argument\] password: newcomer@example.com has no account yet/);
    const accepted = await accept(made.token, "newcomer password");
    expect(accepted).toMatchObject({ organizationId, user: { email: "newcomer@example.com", role: Role.OPERATOR } });
    const newcomer = await asPerson("newcomer@example.com", "newcomer password");
    expect((await newcomer.app.listOrganizations({})).organizations.map((o) => o.id)).toEqual([organizationId]);
    expect(await codeOf(accept(made.token, "newcomer password"))).toBe(invalid);
    expect(await codeOf(accept("x".repeat(64), "whatever password"))).toBe(invalid);
  });

  it("adds an existing person to another organisation; an expired token is refused alike", async () => {
    const organizationId = cloud.init.organization_id;
    const made = await owner.people.createInvitation({ organizationId, email: "stranger@example.com", role: Role.VIEWER });
    await accept(made.token);
    const stranger = await asPerson("stranger@example.com", "stranger password");
    expect((await stranger.app.listOrganizations({})).organizations.map((o) => o.id).sort()).toEqual([organizationId, other.organizationId].sort());
    await expect(stranger.app.updateRobotPart({ id: partId, name: "rover-main", robotConfig: {} })).rejects.toThrow(/needs the operator role \(the caller is viewer\)/);

    const late = await owner.people.createInvitation({ organizationId, email: "late@example.com", role: Role.VIEWER });
    cloud.clock.advance(7 * 24 * 60 * 60_000 + 1);
    expect(await codeOf(accept(late.token, "late password"))).toBe(invalid);
  });

  it("lists the SDK's pending invites with the members; inviting again replaces the pending one", async () => {
    const people = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const organizationId = cloud.init.organization_id;
    const authorization = { authorizationType: "role", authorizationId: "organization_operator", resourceType: "organization", resourceId: organizationId, organizationId };
    const invite = await app.createOrganizationInvite({ organizationId, email: "pending@example.com", authorizations: [authorization] });
    expect(invite.invite?.authorizations[0]?.authorizationId).toBe("organization_operator");
    const first = await people.createInvitation({ organizationId, email: "pending@example.com", role: Role.OPERATOR });
    const second = await people.createInvitation({ organizationId, email: "pending@example.com", role: Role.OPERATOR });
    const listed = await app.listOrganizationMembers({ organizationId });
    expect(listed.invites.map((i) => i.email)).toEqual(["pending@example.com"]);
    expect(listed.members.map((m) => m.emails[0])).toContain("newcomer@example.com");
    expect(await codeOf(accept(first.token, "pending password"))).toBe(invalid);
    await accept(second.token, "pending password");
    expect((await app.listOrganizationMembers({ organizationId })).invites).toEqual([]);
  });

  it("limits guessing: after ten wrong tokens from one address, even a good one waits", async () => {
    const people = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const good = await people.createInvitation({ organizationId: cloud.init.organization_id, email: "patient@example.com", role: Role.VIEWER });
    for (let i = 0; i < 10; i++) await codeOf(accept(`guess-${i}`, "whatever password"));
    expect(await codeOf(accept(good.token, "patient password"))).toBe("[resource_exhausted] too many failed sign-in attempts; try again later");
  });
});
