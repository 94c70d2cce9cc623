import { describe, expect, it } from 'vitest';
import { runHandler, type IntakeHandler } from '../../../src/intake/intake.js';
import { captureLogger } from '../../helpers/capture-logger.js';

/** runHandler: how the intake applies the done rule around one handler call. */
describe('runHandler', () => {
  const run = async (handle: IntakeHandler<string, string>) => {
    const steps: string[] = [];
    let marked = false;
    const done = async (): Promise<void> => {
      // The intake's done marks once (finishOnce); so does this one.
      if (marked) return;
      marked = true;
      steps.push('done');
    };
    const outcome = await runHandler(
      async (item) => {
        steps.push('handle');
        return handle(item);
      },
      'hello',
      { done, logger: captureLogger().logger },
    ).catch((error: unknown) => `threw: ${(error as Error).message}`);
    return { steps, outcome };
  };

  it('marks the entry done when the handler returns, before the person is told', async () => {
    const order: string[] = [];
    const outcome = await runHandler(
      async () => {
        order.push('handle');
        return { outcome: 'delivered', tell: async () => void order.push('tell') };
      },
      'hello',
      {
        done: async () => {
          order.push('done');
        },
        logger: captureLogger().logger,
      },
    );
    expect(outcome).toBe('delivered');
    expect(order).toEqual(['handle', 'done', 'tell']);
  });

  it('marks it done at `typed` (the Enter), before the handler has its outcome', async () => {
    const order: string[] = [];
    await runHandler(
      async ({ typed }) => {
        order.push('enter');
        await typed();
        order.push('outcome');
        return { outcome: 'delivered', tell: async () => void order.push('tell') };
      },
      'hello',
      {
        done: async () => {
          if (!order.includes('done')) order.push('done');
        },
        logger: captureLogger().logger,
      },
    );
    expect(order).toEqual(['enter', 'done', 'outcome', 'tell']);
  });

  it('marks it done when the handler throws, and tells nobody', async () => {
    const { steps, outcome } = await run(async () => {
      throw new Error('tmux went away');
    });
    expect(steps).toEqual(['handle', 'done']);
    expect(outcome).toBe('threw: tmux went away');
  });

  it('hands the handler the message and the logger it was given', async () => {
    const log = captureLogger();
    const child = log.logger.child({ eventId: 'Ev1' });
    await runHandler(
      async ({ message, logger }) => {
        logger.info({ event: 'test.seen', message }, 'seen');
        return { outcome: 'ok' };
      },
      'hello',
      { done: async () => undefined, logger: child },
    );
    expect(log.lines.find((line) => line['event'] === 'test.seen')).toMatchObject({
      eventId: 'Ev1',
      message: 'hello',
    });
  });
});
