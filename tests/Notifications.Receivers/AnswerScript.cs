namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// What a test told a server to answer: for the next N requests, or for all of them until <see cref="Reset"/>.
/// Requests not covered get the server's own verdict. Thread-safe: the server takes from it per request.
/// </summary>
internal sealed class AnswerScript
{
    private readonly Lock gate = new();
    private ScriptedAnswer? always;
    private ScriptedAnswer? next;
    private int nextRemaining;

    /// <summary>Every request from now on gets <paramref name="answer"/>.</summary>
    public void Always(ScriptedAnswer answer)
    {
        lock (gate)
        {
            always = answer;
        }
    }

    /// <summary>The next <paramref name="count"/> requests get <paramref name="answer"/>; after them, the previous behaviour.</summary>
    public void Next(int count, ScriptedAnswer answer)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(count);
        lock (gate)
        {
            next = answer;
            nextRemaining = count;
        }
    }

    public void Reset()
    {
        lock (gate)
        {
            always = null;
            next = null;
            nextRemaining = 0;
        }
    }

    /// <summary>The answer scripted for this request, or null for the server's own verdict.</summary>
    public ScriptedAnswer? Take()
    {
        lock (gate)
        {
            if (nextRemaining > 0)
            {
                nextRemaining--;
                return next;
            }

            return always;
        }
    }
}
