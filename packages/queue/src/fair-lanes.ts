/**
 * The in-process outbox's waiting jobs: one FIFO lane per target (one job of a lane runs at a
 * time: per-chat order), lanes grouped by account, and a ring of the accounts that have a
 * lane ready. Each account appears in the ring once, so the next job goes to the next account
 * in turn: a backlog of one account delays another's job by at most one job per free slot.
 */
import { Fifo } from "@outbox/core/internal";

interface Lane<T> {
  account: Account;
  jobs: Fifo<T>;
}

interface Account {
  name: string;
  /** Lanes of this account that hold a job (ready or running). */
  lanes: number;
  /** Lanes with a job waiting and none running, in the order they became ready. */
  ready: Fifo<string>;
  /** In the ring now. */
  queued: boolean;
  paused: boolean;
}

/** A job taken to run: finish it with {@link FairLanes.done}. */
export interface Taken<T> {
  lane: string;
  job: T;
}

/** Lanes per target, taking turns per account (see the module comment). */
export class FairLanes<T> {
  private readonly lanes = new Map<string, Lane<T>>();
  private readonly accounts = new Map<string, Account>();
  private readonly ring = new Fifo<string>();

  /** Queue `job` on `lane` (a target) of `account`. */
  push(account: string, lane: string, job: T): void {
    let found = this.lanes.get(lane);
    if (found === undefined) {
      found = { account: this.accountOf(account), jobs: new Fifo() };
      this.lanes.set(lane, found);
      found.account.lanes += 1;
      found.account.ready.push(lane);
      this.enqueue(found.account);
    }
    found.jobs.push(job);
  }

  /** The next job in turn (its lane stays busy until `done`); `undefined` when none may run. */
  take(): Taken<T> | undefined {
    for (;;) {
      const name = this.ring.shift();
      if (name === undefined) return undefined;
      const account = this.accounts.get(name) as Account;
      account.queued = false;
      if (account.paused) continue;
      const lane = account.ready.shift() as string;
      this.enqueue(account);
      return { lane, job: (this.lanes.get(lane) as Lane<T>).jobs.peek() as T };
    }
  }

  /** The job taken from `lane` finished: the lane's next job, if any, waits for its turn. */
  done(lane: string): void {
    const found = this.lanes.get(lane) as Lane<T>;
    found.jobs.shift();
    const { account } = found;
    if (found.jobs.size === 0) {
      this.lanes.delete(lane);
      account.lanes -= 1;
      if (account.lanes === 0 && !account.paused) this.accounts.delete(account.name);
      return;
    }
    account.ready.push(lane);
    this.enqueue(account);
  }

  /** Stop taking `account`'s jobs (they stay queued). */
  pause(account: string): void {
    this.accountOf(account).paused = true;
  }

  /** Take `account`'s jobs again, in their order. */
  resume(account: string): void {
    const found = this.accountOf(account);
    found.paused = false;
    if (found.lanes === 0) this.accounts.delete(account);
    else this.enqueue(found);
  }

  private accountOf(name: string): Account {
    let account = this.accounts.get(name);
    if (account === undefined) {
      account = { name, lanes: 0, ready: new Fifo(), queued: false, paused: false };
      this.accounts.set(name, account);
    }
    return account;
  }

  /** Put an account in the ring if it has a ready lane and is neither there nor paused. */
  private enqueue(account: Account): void {
    if (account.queued || account.paused || account.ready.size === 0) return;
    account.queued = true;
    this.ring.push(account.name);
  }
}
