import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useLive } from '../live';
import { useMe } from '../session';
import { Badge, Field, Form, Loading, Page, Time, notify, useSubmit } from '../ui';
import type { Thread } from '../server-types';

/** One contact's thread: what was sent to the number and what came from it, oldest first, with a reply box. */
export function Conversation(p: { number: string }) {
  const [thread, setThread] = useState<Thread | null>(null);
  const { can } = useMe();
  const load = () =>
    api.get<Thread>('/dashboard/v1/conversation', { number: p.number }).then(setThread, (err) => {
      setThread({ number: p.number, entries: [], more: false });
      notify.error(err);
    });
  useEffect(() => void load(), [p.number]);
  useLive('messages', () => void load());
  useLive('received', () => void load());
  const reply = useSubmit(async (f) => {
    await api.post('/v1/messages', { to: thread!.number, body: String(f.get('body') ?? '') });
    (document.getElementById('reply') as HTMLFormElement | null)?.reset();
    notify.success('Reply accepted for sending.');
    await load();
  });
  if (!thread)
    return (
      <Page title={`Conversation with ${p.number}`}>
        <Loading />
      </Page>
    );
  return (
    <Page title={`Conversation with ${thread.number}`}>
      {thread.more && <p class="muted">The newest 100 sent and 100 received are shown.</p>}
      {thread.entries.length === 0 ? (
        <p class="muted">Nothing sent to or received from this number yet.</p>
      ) : (
        <ol class="thread" aria-label="Messages, oldest first">
          {thread.entries.map((e) =>
            e.kind === 'sent' ? (
              <li class="bubble out" data-testid="sent">
                <p class="body">{e.message.body}</p>
                <p class="meta">
                  <a href={`/messages/${e.message.id}`}>Sent</a> <Time at={e.at} /> <Badge value={e.message.status} />
                  {e.message.failureCode && ` ${e.message.failureCode}`}
                </p>
              </li>
            ) : (
              <li class="bubble in" data-testid="received">
                <p class="body">{e.sms.body ?? <span class="muted">removed after the retention period</span>}</p>
                <p class="meta">
                  Received <Time at={e.at} />
                  {e.sms.mobileMoney && (
                    <>
                      {' '}
                      <a href={`/mobile-money?open=${e.sms.mobileMoney.id}`}>
                        mobile money <Badge value={e.sms.mobileMoney.classification} />
                      </a>
                    </>
                  )}
                </p>
              </li>
            ),
          )}
        </ol>
      )}
      {can('admin') && (
        <Form class="card" id="reply" submit={reply}>
          <Field label="Reply">{(id) => <textarea id={id} name="body" rows={3} maxLength={1600} required />}</Field>
          <button class="primary" type="submit" disabled={reply.busy}>
            Send the reply
          </button>
        </Form>
      )}
    </Page>
  );
}
