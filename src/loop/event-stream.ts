/**
 * A queue of events read as an async iterable by one reader at a time. Events pushed before
 * anyone reads wait; `end` lets the reader finish once the queue is drained. Leaving a
 * `for await` early does not end the stream: the next loop over it goes on where that one stopped.
 */
export class EventStream<T> implements AsyncIterable<T> {
  readonly #queue: T[] = [];
  #waiting: ((result: IteratorResult<T, undefined>) => void) | undefined;
  #ended = false;

  push(event: T): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting({ done: false, value: event });
    } else {
      this.#queue.push(event);
    }
  }

  /** No more events: a reader gets what is queued, then the end. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ done: true, value: undefined });
  }

  get ended(): boolean {
    return this.#ended;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const event = this.#queue.shift();
    if (event !== undefined) return Promise.resolve({ done: false, value: event });
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    if (this.#waiting !== undefined)
      return Promise.reject(new Error('an event stream has one reader at a time'));
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => this.next(),
      // Breaking out of a loop leaves the stream as it is.
      return: () => Promise.resolve({ done: true, value: undefined }),
    };
  }
}
