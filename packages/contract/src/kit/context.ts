// What every check gets: the target, the document model, Ajv, the generators, an HTTP client,
// fixtures (existing resources in the stateful profile, generated ids in the stateless one), the
// loopback receiver, and the resources the run created, deleted again at its end.
import { AsyncLocalStorage } from 'node:async_hooks';
import { loadDocument } from 'secmon-api/src/document';
import { createSchemaValidator, type SchemaValidator } from 'secmon-api/src/schema-validator';
import { createCases } from './cases.ts';
import { type AnyCheck, checkHandle } from './failure.ts';
import { createGenerator, type Mutation, samples } from './generate.ts';
import { createHttpClient, type Exchange, type HttpClient, type RequestSpec } from './http.ts';
import { DEFAULT_CASES, defaultRateProbeMax, type KitOptions } from './options.ts';
import { type Receiver, startReceiver } from './receiver.ts';
import { buildModel, type ContractModel, type OperationModel, type ResourceModel } from './spec.ts';
import { sentBodyValidator } from './verify.ts';

export type { KitOptions, Profile } from './options.ts';

/** Where webhooks point when events are skipped: `.invalid` never resolves (RFC 2606). */
const NOWHERE = 'https://secmon-contract.invalid';

export interface KitContext {
  options: Required<
    Omit<
      KitOptions,
      'readKey' | 'document' | 'receiverUrl' | 'receiverListen' | 'onWait' | 'triggerCommand' | 'corsOrigin' | 'skipRetryTiming'
    >
  > & {
    readKey?: string;
    triggerCommand?: string;
    /** Set when the target reaches the kit's receiver through a tunnel or CI service, not on loopback. */
    receiverUrl?: string;
  };
  model: ContractModel;
  validator: SchemaValidator;
  /** What response and event bodies are checked with (see sentBodyValidator). */
  sentValidator: SchemaValidator;
  http: HttpClient;
  /** Every exchange of the run so far, whoever sent it (the response audit reads them). */
  exchanges: Exchange[];
  /**
   * Runs `work` with every exchange it causes, at any depth and also after it returns (a probe it
   * started), appended to `log`, and the creation of each fixture it uses: what a failure replays.
   */
  recording<T>(log: Exchange[], work: () => T): T;
  /**
   * Appends exchanges made once for several checks (the event scenario) to the current check's log,
   * as a fixture's creation is: a later check's failure needs them to replay.
   */
  record(exchanges: readonly Exchange[]): void;
  receiver(): Promise<Receiver>;
  /** An id for the item path of a resource: an existing resource (stateful) or a valid made-up one. */
  fixture(resource: ResourceModel, fresh?: boolean): Promise<string>;
  /** Creates a resource from a generated valid body (judged by `check`); deleted again by cleanup. */
  create(
    resource: ResourceModel,
    check: AnyCheck,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ id: string; exchange: Exchange }>;
  /** Ids of the resource the kit created in this run, oldest first (a check may have deleted some since). */
  createdIds(resource: ResourceModel): string[];
  /** `count` valid bodies for the operation's request body. */
  validBodies(op: OperationModel, count: number): Promise<unknown[]>;
  /** `count` invalid bodies (each really invalid per Ajv), with what was broken. */
  invalidBodies(op: OperationModel, count: number): Promise<{ mutation: Mutation; body: unknown }[]>;
  /** `count` sets of valid query parameters (only parameters a client may invent). */
  validQueries(op: OperationModel, count: number): Record<string, string>[];
  /** The operation's path with its `{id}` replaced. */
  pathOf(op: OperationModel, id?: string): string;
  send(op: OperationModel, spec: Omit<RequestSpec, 'method' | 'path'> & { id?: string; path?: string }): Promise<Exchange>;
  resourceOf(op: OperationModel): ResourceModel;
  /**
   * Runs one check's body; the webhooks it created are deleted when it ends, so the events of later
   * checks are not also delivered to them (on a target whose deliveries are slow, that backlog would
   * delay the deliveries later checks wait for). Policies and findings stay for cleanup.
   */
  scoped<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Deliveries on the kit's webhooks of events it did not cause (other clients of a shared target)
   * so far, as the event checks count them; 0 when they have not run.
   */
  foreignDeliveries(): Promise<number>;
  /** How the event checks count them, given once their scenario started. */
  countForeignDeliveries(count: () => Promise<number>): void;
  /** Runs `work` outside any check's scope: what it creates is shared by several checks and stays. */
  shared<T>(work: () => T): T;
  /** Deletes what the kit created (webhooks first, so nothing keeps delivering); returns what it could not. */
  cleanup(): Promise<string[]>;
}

/**
 * Compiling the document's schemas is a large part of a short run's CPU: runs in one process
 * against the document as bundled (a suite's many runs of one check each) share one validator,
 * which keeps nothing of a run but its compiled schemas.
 */
let bundledValidator: SchemaValidator | undefined;

export function createKitContext(options: KitOptions): KitContext {
  const doc = options.document ?? loadDocument();
  const model = buildModel(doc);
  const validator = options.document ? createSchemaValidator(doc) : (bundledValidator ??= createSchemaValidator(doc));
  const sentValidator = sentBodyValidator(doc, validator, options.allowNewerFields ?? false);
  // What the fixtures shared by several checks are created as: a failure names no check's rules.
  const fixtureCheck = checkHandle({ name: 'fixture', rules: [] }, sentValidator);
  const settings = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    profile: options.profile,
    seed: options.seed ?? 20261102,
    cases: options.cases ?? DEFAULT_CASES,
    rateProbeMaxQuota: options.rateProbeMaxQuota ?? defaultRateProbeMax(options.baseUrl),
    eventTimeoutMs: options.eventTimeoutMs ?? 15_000,
    events: options.events ?? 'check',
    eventsOutOfScope: options.eventsOutOfScope ?? [],
    allowNewerFields: options.allowNewerFields ?? false,
    ...(options.readKey ? { readKey: options.readKey } : {}),
    ...(options.triggerCommand ? { triggerCommand: options.triggerCommand } : {}),
    ...(options.receiverUrl ? { receiverUrl: options.receiverUrl } : {}),
  };
  const http = createHttpClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    userAgent: `secmon-contract/${doc.info.version}`,
    ...(options.readKey ? { readKey: options.readKey } : {}),
    ...(options.onWait ? { onWait: options.onWait } : {}),
  });
  const exchanges: Exchange[] = [];
  const logs = new AsyncLocalStorage<Exchange[]>();
  const record = (exchange: Exchange) => {
    const log = logs.getStore();
    if (log && !log.includes(exchange)) log.push(exchange);
  };
  const sendAndKeep = http.send;
  http.send = async (spec) => {
    const exchange = await sendAndKeep(spec);
    exchanges.push(exchange);
    record(exchange);
    return exchange;
  };
  const stateful = options.profile === 'stateful';
  const created: { resource: ResourceModel; id: string; scope?: object }[] = [];
  const scopes = new AsyncLocalStorage<object | undefined>();
  let closing = false;
  let countForeign = () => Promise.resolve(0);
  const fixtures = new Map<string, Promise<{ id: string; exchange: Exchange }>>();
  let receiver: Promise<Receiver> | undefined;
  const getReceiver = () => (receiver ??= startReceiver(options.receiverListen ?? { host: '127.0.0.1', port: 0 }, options.receiverUrl));
  const sinkUrl = async () => (settings.events === 'skip' && !options.receiverUrl ? NOWHERE : (await getReceiver()).url);

  const resourceOf = (op: OperationModel) => {
    const resource = model.resources.find((r) => r.name === op.resource);
    if (!resource) throw new Error(`${op.label} is not a CRUD operation`);
    return resource;
  };

  const { validBodies, invalidBodies, validQueries, mentions } = createCases({
    doc,
    model,
    validator,
    settings,
    stateful,
    fixture: (resource) => fixture(resource),
    sinkUrl,
  });

  function pathOf(op: OperationModel, id?: string): string {
    return op.path.replace(/\{[^}]+\}/, encodeURIComponent(id ?? ''));
  }

  /** Sends an operation's request; whatever a create makes is remembered for cleanup, whoever sent it. */
  async function send(op: OperationModel, spec: Omit<RequestSpec, 'method' | 'path'> & { id?: string; path?: string }) {
    const { id, path, ...rest } = spec;
    const exchange = await http.send({ ...rest, method: op.method.toUpperCase(), path: path ?? pathOf(op, id) });
    const createdId = (exchange.json as { id?: unknown } | undefined)?.id;
    if (op.kind === 'create' && exchange.status >= 200 && exchange.status < 300 && typeof createdId === 'string') {
      const resource = resourceOf(op);
      if (!created.some((entry) => entry.resource === resource && entry.id === createdId))
        created.push({ resource, id: createdId, scope: scopes.getStore() });
      // A check still running when cleanup began (an interrupted run) must not leave this behind.
      if (closing && resource.delete) await send(resource.delete, { id: createdId }).catch(() => undefined);
    }
    // Deleted by a check already: cleanup need not spend a request (and a time budget's quota) on it.
    if (op.kind === 'delete' && id !== undefined && exchange.status >= 200 && exchange.status < 300 && !closing) {
      const index = created.findIndex((entry) => entry.resource.delete === op && entry.id === id);
      if (index >= 0) created.splice(index, 1);
    }
    return exchange;
  }

  async function create(resource: ResourceModel, check: AnyCheck, given?: unknown, headers?: Record<string, string>) {
    const op = resource.create;
    if (!op) throw new Error(`${resource.name} has no create operation`);
    const body = given ?? (await validBodies(op, 1))[0];
    const exchange = await send(op, { body, ...(headers ? { headers } : {}) });
    check.conform(op, exchange, { range: '2xx' }, `creating a ${resource.name} resource`);
    const id = (exchange.json as { id?: unknown }).id;
    if (typeof id !== 'string') check.fail({ at: op, observed: 'the created resource has no id', exchange });
    return { id, exchange };
  }

  function fixture(resource: ResourceModel, fresh = false): Promise<string> {
    if (!stateful || !resource.create) {
      const idPointer = resource.read?.params.find((p) => p.in === 'path')?.pointer;
      if (!idPointer) return Promise.reject(new Error(`no id schema for ${resource.name}`));
      const [id] = samples(createGenerator(doc).arbitrary({ $ref: idPointer }), 1, settings.seed);
      return Promise.resolve(String(id));
    }
    if (fresh) return create(resource, fixtureCheck).then((result) => result.id);
    let pending = fixtures.get(resource.name);
    if (!pending) {
      pending = shared(() => create(resource, fixtureCheck));
      fixtures.set(resource.name, pending);
    }
    return pending.then((result) => {
      record(result.exchange);
      return result.id;
    });
  }

  function shared<T>(work: () => T): T {
    return scopes.run(undefined, work);
  }

  async function scoped<T>(work: () => Promise<T>): Promise<T> {
    const scope = {};
    try {
      return await scopes.run(scope, work);
    } finally {
      const mine = created.filter((entry) => entry.scope === scope && entry.resource.name === 'webhooks' && entry.resource.delete);
      // An interrupted run's cleanup deletes them instead.
      if (!closing)
        for (const entry of mine) {
          const deleted = await send(entry.resource.delete!, { id: entry.id }).catch(() => undefined);
          if (deleted?.status === 404) created.splice(created.indexOf(entry), 1);
        }
    }
  }

  /**
   * Deletes everything the run created: webhooks first (nothing more is queued to the kit's
   * receiver), then what references others (deleting a referenced resource is refused with 409).
   * Returns what could not be deleted.
   */
  async function cleanup(): Promise<string[]> {
    closing = true;
    const order = [...model.resources].sort((a, b) => weight(a) - weight(b));
    const left: string[] = [];
    for (const resource of order) {
      if (!resource.delete) continue;
      for (const entry of created.filter((c) => c.resource === resource)) {
        const deleted = await send(resource.delete, { id: entry.id }).catch(() => undefined);
        if (!deleted || (deleted.status >= 300 && deleted.status !== 404)) left.push(`${resource.name} ${entry.id}`);
      }
    }
    if (receiver) await (await receiver).close();
    return left;
  }

  const weight = (resource: ResourceModel) => (resource.name === 'webhooks' ? -1 : referencesOthers(resource) ? 0 : 1);
  const referencesOthers = (resource: ResourceModel) =>
    model.resources.some(
      (other) => other !== resource && other.idRef !== undefined && resource.create !== undefined && mentions(resource.create, other.idRef),
    );

  return {
    options: settings,
    model,
    validator,
    sentValidator,
    http,
    exchanges,
    recording: (log, work) => logs.run(log, work),
    record: (made) => {
      for (const exchange of made) record(exchange);
    },
    receiver: getReceiver,
    fixture,
    create,
    createdIds: (resource) => created.filter((entry) => entry.resource === resource).map((entry) => entry.id),
    validBodies,
    invalidBodies,
    validQueries,
    pathOf,
    send,
    resourceOf,
    scoped,
    shared,
    foreignDeliveries: () => countForeign(),
    countForeignDeliveries: (count) => {
      countForeign = count;
    },
    cleanup,
  };
}
