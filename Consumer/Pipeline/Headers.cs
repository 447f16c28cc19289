using System.Globalization;
using System.Text;

namespace Notifications.Consumer.Pipeline;

/// <summary>The AMQP headers this system reads and writes.</summary>
internal static class Headers
{
    /// <summary>The attempt number of a retried message (absent on the first).</summary>
    public const string Attempt = "x-attempt";

    /// <summary>Why a message was dead-lettered.</summary>
    public const string DeadReason = "x-dead-reason";

    /// <summary>How many attempts a dead-lettered message had.</summary>
    public const string DeadAttempts = "x-dead-attempts";

    /// <summary>When it was dead-lettered (Unix milliseconds).</summary>
    public const string DeadAt = "x-dead-at";

    /// <summary>The key of its row in the <c>dead_letter</c> table.</summary>
    public const string DeadKey = "x-dead-key";

    /// <summary>When an operator requeued it from the dead-letter queue (Unix milliseconds; set by the admin tool).</summary>
    public const string RequeuedAt = "x-requeued-at";

    /// <summary>
    /// Reads an integer header, whatever AMQP type the publisher used; a missing or unreadable value
    /// gives <paramref name="fallback"/>.
    /// </summary>
    public static int ReadInt(IDictionary<string, object?>? headers, string name, int fallback)
    {
        if (headers is null || !headers.TryGetValue(name, out object? value))
        {
            return fallback;
        }

        return value switch
        {
            int i => i,
            long l when l is >= int.MinValue and <= int.MaxValue => (int)l,
            short s => s,
            byte b => b,
            byte[] bytes when int.TryParse(Encoding.UTF8.GetString(bytes), NumberStyles.Integer, CultureInfo.InvariantCulture, out int parsed) => parsed,
            _ => fallback,
        };
    }
}
