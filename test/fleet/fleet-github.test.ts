import { afterEach, describe, expect, it } from 'vitest';
import { agentPrompts, untagged } from '../helpers/agent-prompts.js';
import { eventually } from '../helpers/eventually.js';
import {
  commentDelivery,
  deliverTo,
  githubFleetMember,
  handledEvents,
  outcomeOn,
  type GithubMember,
} from './fleet-github-fixture.js';
import { fleetTierUnavailable, startNatsServer, type NatsServer } from './nats-server.js';

const unavailable = fleetTierUnavailable();
const title = `GitHub over the fleet (docs/design.md §21)${unavailable ? ` (skipped: ${unavailable})` : ''}`;
const listComments = /\/repos\/octo\/repo\/issues\/comments$/;

describe.skipIf(unavailable !== undefined)(title, () => {
  let nats: NatsServer | undefined;
  const members: GithubMember[] = [];

  afterEach(async () => {
    for (const member of members.splice(0)) {
      await member.serve.dispose();
      await member.github.stop();
    }
    await nats?.dispose();
  });

  const fleetOfThree = async (options: { poll?: boolean } = {}) => {
    nats = await startNatsServer();
    for (const name of ['a', 'b', 'c']) {
      const member = await githubFleetMember(name, nats, options);
      members.push(member);
      await member.serve.start();
    }
    return members as [GithubMember, GithubMember, GithubMember];
  };

  const polls = (member: GithubMember) => member.github.callsMatching('GET', listComments).length;
  /** The one instance polling the repository (it holds the lease). */
  const poller = (among: readonly GithubMember[], timeoutMs: number, what: string) =>
    eventually(() => among.find((member) => polls(member) > 0), { timeoutMs, what });
  /** `member` goes on polling, and `other` never starts: the lease stays where it is. */
  const keepsPolling = async (member: GithubMember, other: GithubMember) => {
    const seen = polls(member);
    await eventually(() => polls(member) >= seen + 3, {
      timeoutMs: 20_000,
      what: 'three more polls',
    });
    expect(polls(other)).toBe(0);
  };

  it('a delivery taken by A that addresses instance:b is acted on by B once; a retry acts once', async () => {
    const [a, b, c] = await fleetOfThree();
    const start = commentDelivery(members, 'Over to you. the-loop start instance:b', 7_001);
    await deliverTo(a, start);
    expect(await outcomeOn(b, 7_001)).toBe('started');
    expect(await outcomeOn(a, 7_001)).toBe('refused');
    expect(await outcomeOn(c, 7_001)).toBe('refused');
    // B acted (its own GitHub saw the reactions); A and C left no mark.
    await eventually(() => b.github.reactionsOn(7_001).includes('rocket'), {
      what: 'B to react rocket',
    });
    expect(b.github.reactionsOn(7_001)).toEqual(['eyes', 'rocket']);
    expect(a.github.writeCalls()).toEqual([]);
    expect(c.github.writeCalls()).toEqual([]);

    // GitHub retries a delivery (same X-GitHub-Delivery), here at another instance.
    const plain = commentDelivery(members, 'the failing test is in parser.ts', 7_002);
    await deliverTo(a, plain);
    expect(await outcomeOn(b, 7_002)).toBe('delivered');
    await deliverTo(c, plain);
    await deliverTo(a, plain);
    // One more comment behind them on `loop.gh`: once B has judged it, the retries are behind it.
    await deliverTo(c, commentDelivery(members, 'and one more thing', 7_003));
    expect(await outcomeOn(b, 7_003)).toBe('delivered');
    for (const member of [a, b, c]) {
      expect(await handledEvents(member, 7_002)).toHaveLength(1);
    }
    const prompts = (await agentPrompts(b.serve.agentHome)).map(untagged);
    expect(
      prompts.filter((prompt) => prompt.endsWith('the failing test is in parser.ts')),
    ).toHaveLength(1);
    expect(b.github.reactionsOn(7_002).filter((content) => content === 'eyes')).toHaveLength(1);
  });

  it('with the poller one instance polls the repository; another takes over when it stops', async () => {
    await fleetOfThree({ poll: true });
    const holder = await poller(members, 20_000, 'one instance to poll');
    // A few more rounds of the holder; the others never poll.
    const seen = polls(holder);
    await eventually(() => polls(holder) >= seen + 3, {
      timeoutMs: 20_000,
      what: 'three more polls',
    });
    for (const member of members) if (member !== holder) expect(polls(member)).toBe(0);

    // A comment only the poller sees reaches the instance it addresses through the fleet.
    const others = members.filter((member) => member !== holder);
    const addressed = others[0]!;
    commentDelivery(members, `the-loop start instance:${addressed.name}`, 7_101);
    expect(await outcomeOn(addressed, 7_101)).toBe('started');
    expect(await outcomeOn(holder, 7_101)).toBe('refused');

    // A graceful stop frees the lease at once: one of the others takes it, and only that one.
    await holder.serve.kill('SIGTERM');
    const next = await poller(others, 20_000, 'another instance to take the lease over');
    await keepsPolling(
      next,
      others.find((member) => member !== next)!,
    );
  });

  it('a poller killed with SIGKILL keeps its lease until the TTL lapses; then one other polls and catches up', async () => {
    await fleetOfThree({ poll: true });
    const holder = await poller(members, 20_000, 'one instance to poll');
    // No graceful stop frees the lease: it lapses 30 s after the holder last renewed it (each
    // poll renews it, so within a poll interval of the kill).
    await holder.serve.kill('SIGKILL');
    const killedAt = Date.now();
    const others = members.filter((member) => member !== holder);
    // Made while nobody polls: the instance that takes the lease over must still see it.
    const addressed = others[0]!;
    commentDelivery(members, `the-loop start instance:${addressed.name}`, 7_201);
    const next = await poller(others, 60_000, 'another instance to take the lapsed lease over');
    // A live lease is left alone: nobody took it while it was younger than the TTL.
    expect(Date.now() - killedAt).toBeGreaterThan(15_000);
    expect(await outcomeOn(addressed, 7_201)).toBe('started');
    await keepsPolling(
      next,
      others.find((member) => member !== next)!,
    );
    expect(await handledEvents(addressed, 7_201)).toHaveLength(1);
  });

  it('NATS down: the webhook still works for the receiver; the rest waits in its outbox, nothing twice', async () => {
    const [a, b] = await fleetOfThree();
    await nats!.stop();
    await eventually(async () => (await a.serve.cli(['status'])).stdout.includes('down since'), {
      timeoutMs: 20_000,
      what: 'A to see the fleet down',
    });
    // Addressed to the receiver itself: handled at once, NATS or not.
    await deliverTo(a, commentDelivery(members, 'the-loop start instance:a', 7_201));
    expect(await outcomeOn(a, 7_201)).toBe('started');
    // Addressed to B: A refuses it now; B gets it from A's outbox once NATS is back.
    await deliverTo(a, commentDelivery(members, 'the-loop start instance:b', 7_202));
    expect(await outcomeOn(a, 7_202)).toBe('refused');
    expect(await handledEvents(b, 7_202)).toEqual([]);
    await nats!.start();
    expect(await outcomeOn(b, 7_202)).toBe('started');
    // One more behind them: once B has judged it, the flushed ones are behind it too.
    await deliverTo(b, commentDelivery(members, 'the-loop start instance:c', 7_203));
    expect(await outcomeOn(members[2]!, 7_203)).toBe('started');
    expect(await outcomeOn(a, 7_203)).toBe('refused');
    for (const member of members) {
      expect(await handledEvents(member, 7_201)).toHaveLength(1);
      expect(await handledEvents(member, 7_202)).toHaveLength(1);
    }
    expect(a.github.reactionsOn(7_201)).toEqual(['eyes', 'rocket']);
    expect(b.github.reactionsOn(7_202)).toEqual(['eyes', 'rocket']);
  });
});
