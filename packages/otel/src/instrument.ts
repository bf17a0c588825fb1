/**
 * The subscriber: turns the diagnostics channels Outbox publishes on (`OUTBOX_CHANNELS` of
 * `@outbox/core`) into OpenTelemetry spans and metrics. A part's message names its send's
 * message as `parent`, and a call's its part's, so each span finds its parent's by the
 * message it was opened for, with no async context carried across the platform's HTTP calls.
 * An agent run and a queued job wrap sends made through the public `send`: their span is kept
 * in an AsyncLocalStorage while they run, where a send finds it. A send outside them is a
 * child of the integrator's active span; a queued job's span continues the trace its
 * producer carried in the job.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type Channel, channel, type TracingChannel, tracingChannel } from "node:diagnostics_channel";
import { performance } from "node:perf_hooks";
import {
  type Attributes,
  type Context,
  context as contextApi,
  type MeterProvider,
  metrics,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import {
  type AgentRunTrace,
  type CallTrace,
  type DeliveryReceipt,
  type EnqueueTrace,
  type JobTrace,
  OUTBOX_CHANNELS,
  type PartTrace,
  type SendTrace,
  type WaitNote,
} from "@outbox/core";
import { ATTR, createHasher, errorType, outcomeOf, statusOf } from "./attributes.js";
import { createDeliveryMetrics } from "./delivery-metrics.js";
import { SCOPE_NAME, SCOPE_VERSION } from "./scope.js";

/** Options of {@link instrumentOutbox}. */
export interface OutboxTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`, or the Node SDK's). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider. */
  meterProvider?: MeterProvider;
  /**
   * Key of the hash that stands for chat ids and job keys in attributes. Give every process
   * the same key (a secret, from your configuration) so one chat has one hash everywhere;
   * default: a random key per process.
   */
  hashKey?: string;
}

/** A running instrumentation. */
export interface OutboxTelemetry {
  /**
   * Stop recording: no span opens after this call. Spans already open still end as their
   * operations settle; the channels are left once the last one has.
   */
  stop(): void;
}

/** The span of an operation under way, what its children inherit, and when it started. */
interface Scope {
  span: Span;
  /** The context the span was started in. */
  parent: Context;
  /** The span's own context, made when a child or a propagator first asks (a call has none). */
  context: Context | undefined;
  platform: string | undefined;
  target: string | undefined;
  /** When a part started (`performance.now()`), for its latency; 0 for other spans. */
  started: number;
}

/** How one channel's operation opens and closes its span. */
interface Handlers<M> {
  open(message: M, parent: Scope | undefined): Scope;
  close(message: M, scope: Scope): void;
}

/** A message that may name the message of the operation it is part of. */
interface Nested {
  parent?: object;
}

/**
 * Record Outbox's deliveries, platform calls and queue jobs as spans and metrics. Call it once
 * at start-up, after the OpenTelemetry SDK is set up; nothing is recorded before, and Outbox
 * pays nothing while it is not called.
 */
export function instrumentOutbox(options: OutboxTelemetryOptions = {}): OutboxTelemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE_NAME, SCOPE_VERSION);
  const recorded = createDeliveryMetrics(
    (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE_NAME, SCOPE_VERSION),
  );
  const hash = createHasher(options.hashKey);
  // The scope of every operation under way, by the message it was published with.
  const scopes = new WeakMap<object, Scope>();
  // The agent run or queued job a send is made in (they call the public `send`).
  const around = new AsyncLocalStorage<Scope>();
  // Unsubscribing waits for the spans still open, so that each ends.
  const leaves: Array<() => void> = [];
  let stopped = false;
  let openSpans = 0;
  // Done at once on stop: runs and jobs started later open no span.
  const stopping: Array<() => void> = [];
  const leave = (): void => {
    for (const unsubscribe of leaves.splice(0)) unsubscribe();
    around.disable();
  };

  /** The scope a message names as its parent, else the run or job it is made in. */
  const enclosing = (message: Nested): Scope | undefined =>
    (message.parent === undefined ? undefined : scopes.get(message.parent)) ?? around.getStore();

  const start = (
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    parent: Context,
    platform: string | undefined,
    target: string | undefined,
  ): Scope => ({
    span: tracer.startSpan(name, { kind, attributes }, parent),
    parent,
    context: undefined,
    platform,
    target,
    started: 0,
  });
  const parentOf = (parent: Scope | undefined): Context =>
    parent === undefined ? contextApi.active() : contextOf(parent);

  /**
   * Open a span at each operation's start and end it when the operation settles. `wraps`: the
   * operation calls `send` itself (an agent run, a job), so its scope is kept in `around` while
   * it runs.
   */
  function watch<M extends object>(name: string, handlers: Handlers<M>, wraps = false): void {
    const traced = tracingChannel(name) as TracingChannel<unknown, M & { error?: unknown }>;
    const opened = (message: M): Scope => {
      const scope = handlers.open(message, enclosing(message as Nested));
      scopes.set(message, scope);
      openSpans += 1;
      return scope;
    };
    const finish = (message: M & { error?: unknown }): void => {
      const scope = scopes.get(message);
      if (scope === undefined) return;
      scopes.delete(message);
      openSpans -= 1;
      if (message.error !== undefined) {
        scope.span.setAttribute(ATTR.errorType, errorType(message.error));
        scope.span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(message.error) });
      }
      handlers.close(message, scope);
      scope.span.end();
      if (stopped && openSpans === 0) leave();
    };
    if (wraps) traced.start.bindStore(around, opened);
    // Only the events read are subscribed: Node publishes nothing on asyncStart and error.
    const subscribers: Array<[Channel<unknown, unknown>, (message: unknown) => void]> = [
      [
        traced.start,
        (message) => {
          if (!wraps && !stopped) opened(message as M);
        },
      ],
      // A synchronous throw ends here; a promise's settling ends at asyncEnd.
      [
        traced.end,
        (message) => {
          if ((message as { error?: unknown }).error !== undefined) finish(message as M);
        },
      ],
      [traced.asyncEnd, (message) => finish(message as M)],
    ];
    for (const [on, subscriber] of subscribers) on.subscribe(subscriber);
    leaves.push(() => {
      for (const [on, subscriber] of subscribers) on.unsubscribe(subscriber);
    });
    if (wraps) stopping.push(() => traced.start.unbindStore(around));
  }

  /** A span around one reply (a send or an agent run), closed with its receipt's counts. */
  const watchReply = <T extends AgentRunTrace | SendTrace>(channel: string, name: string, wraps: boolean) =>
    watch<T>(
      channel,
      {
        open: (message, parent) => {
          const target = hash(message.to);
          return start(
            name,
            SpanKind.INTERNAL,
            { [ATTR.platform]: message.platform, [ATTR.target]: target },
            parentOf(parent),
            message.platform,
            target,
          );
        },
        close: (message, scope) => {
          if (message.result === undefined) return;
          receiptAttributes(scope.span, message.result);
          if (!message.result.ok) scope.span.setStatus({ code: SpanStatusCode.ERROR });
        },
      },
      wraps,
    );
  watchReply<AgentRunTrace>(OUTBOX_CHANNELS.agentRun, "outbox.agent_run", true);
  watchReply<SendTrace>(OUTBOX_CHANNELS.send, "outbox.send", false);

  watch<PartTrace>(OUTBOX_CHANNELS.part, {
    open: (message, parent) => {
      const attributes: Attributes = { [ATTR.part]: message.part, [ATTR.partType]: message.type };
      if (parent?.platform !== undefined) attributes[ATTR.platform] = parent.platform;
      const scope = start(
        "outbox.part",
        SpanKind.INTERNAL,
        attributes,
        parentOf(parent),
        parent?.platform,
        parent?.target,
      );
      scope.started = performance.now();
      return scope;
    },
    close: (message, scope) => {
      const failure = message.error ?? message.result?.error;
      const outcome = outcomeOf(failure);
      scope.span.setAttribute(ATTR.outcome, outcome);
      if (failure !== undefined && message.error === undefined) {
        scope.span.setAttribute(ATTR.errorType, errorType(failure));
        scope.span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(failure) });
      }
      recorded.part(scope.platform, outcome, (performance.now() - scope.started) / 1000);
    },
  });

  watch<CallTrace>(OUTBOX_CHANNELS.call, {
    open: (message, parent) => {
      const attributes: Attributes = {};
      if (parent?.platform !== undefined) attributes[ATTR.platform] = parent.platform;
      attributes[ATTR.target] = parent?.target ?? hash(message.to);
      attributes[ATTR.attempt] = message.attempt;
      if (message.part !== undefined) attributes[ATTR.part] = message.part;
      if (message.kind !== undefined) attributes[ATTR.kind] = message.kind;
      return start(
        "outbox.call",
        SpanKind.CLIENT,
        attributes,
        parentOf(parent),
        parent?.platform,
        parent?.target,
      );
    },
    close: (message, scope) => {
      scope.span.setAttribute(ATTR.outcome, outcomeOf(message.error));
      const status = statusOf(message.error);
      if (status !== undefined) scope.span.setAttribute(ATTR.httpStatus, status);
      if (status === 429) recorded.rateLimited(scope.platform);
    },
  });

  watch<EnqueueTrace>(OUTBOX_CHANNELS.enqueue, {
    open: (message, parent) => {
      const target = hash(message.to);
      const scope = start(
        "send outbox",
        SpanKind.PRODUCER,
        { ...messaging("send", "enqueue"), [ATTR.platform]: message.platform, [ATTR.target]: target },
        parentOf(parent),
        message.platform,
        target,
      );
      // What the worker continues the trace from: written into the job as it is queued.
      propagation.inject(contextOf(scope), message.carrier);
      return scope;
    },
    close: () => {},
  });

  watch<JobTrace>(
    OUTBOX_CHANNELS.job,
    {
      open: (message, parent) => {
        const target = hash(message.to);
        return start(
          "process outbox",
          SpanKind.CONSUMER,
          {
            ...messaging("process", "deliver"),
            [ATTR.platform]: message.platform,
            [ATTR.target]: target,
            [ATTR.job]: hash(message.id),
            [ATTR.previousAttempts]: message.previousAttempts,
          },
          message.carrier === undefined
            ? parentOf(parent)
            : propagation.extract(ROOT_CONTEXT, message.carrier),
          message.platform,
          target,
        );
      },
      close: (message, scope) => {
        if (message.result === undefined) return;
        scope.span.setAttribute(ATTR.jobStatus, message.result.status);
        scope.span.setAttribute(ATTR.attempt, message.result.attempts);
        if (message.result.status !== "delivered") scope.span.setStatus({ code: SpanStatusCode.ERROR });
      },
    },
    true,
  );

  const waits = channel(OUTBOX_CHANNELS.wait);
  const onWait = (raw: unknown): void => {
    const note = raw as WaitNote;
    const scope = enclosing(note);
    scope?.span.addEvent(note.reason === "pacing" ? "outbox.pacing.wait" : "outbox.retry_after", {
      [ATTR.waitMs]: note.ms,
      [ATTR.attempt]: note.attempt,
    });
    recorded.wait(scope?.platform, note.reason, note.ms / 1000);
  };
  waits.subscribe(onWait);
  leaves.push(() => waits.unsubscribe(onWait));

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      for (const unbind of stopping.splice(0)) unbind();
      if (openSpans === 0) leave();
    },
  };
}

/** The span's context, for its children and the propagator: made once, on first use. */
function contextOf(scope: Scope): Context {
  if (scope.context === undefined) scope.context = trace.setSpan(scope.parent, scope.span);
  return scope.context;
}

/** The messaging attributes of the queue's spans (semantic conventions: messaging). */
function messaging(type: "send" | "process", name: string): Attributes {
  return {
    [ATTR.messagingSystem]: "outbox",
    [ATTR.messagingOperationType]: type,
    [ATTR.messagingOperationName]: name,
    [ATTR.messagingDestination]: "outbox",
  };
}

/** A receipt's part counts on its span (counts only: no id, text or reason). */
function receiptAttributes(span: Span, receipt: Pick<DeliveryReceipt, "messages" | "failures">): void {
  const failed = new Set<number>();
  let ambiguous = 0;
  for (const failure of receipt.failures) {
    failed.add(failure.part);
    if (failure.ambiguous === true || isAmbiguousEntry(failure)) ambiguous += 1;
  }
  const delivered = new Set<number>();
  for (const message of receipt.messages) if (!failed.has(message.part)) delivered.add(message.part);
  span.setAttribute(ATTR.delivered, delivered.size);
  span.setAttribute(ATTR.failed, failed.size - ambiguous);
  span.setAttribute(ATTR.ambiguous, ambiguous);
}

/** An entry built by hand may lack `ambiguous`: its error says. */
function isAmbiguousEntry(failure: DeliveryReceipt["failures"][number]): boolean {
  return failure.ambiguous === undefined && outcomeOf(failure.error) === "ambiguous";
}
