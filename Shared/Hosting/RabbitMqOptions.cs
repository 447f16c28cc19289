using System.ComponentModel.DataAnnotations;

namespace Notifications.Shared.Hosting;

/// <summary>Broker connection and topology. Section <c>RabbitMq</c>; env vars <c>RabbitMq__Uri</c> etc.</summary>
public sealed class RabbitMqOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "RabbitMq";

    /// <summary>AMQP URI with credentials and virtual host.</summary>
    [Required]
    public Uri Uri { get; set; } = new("amqp://guest:guest@127.0.0.1:5672/");

    /// <summary>The direct exchange notifications are published to.</summary>
    [Required, RegularExpression(NamePattern)]
    public string Exchange { get; set; } = "notifications";

    /// <summary>The work queue competing consumers read; also the routing key.</summary>
    [Required, RegularExpression(NamePattern)]
    public string Queue { get; set; } = "notifications";

    /// <summary>
    /// Delays before each retry of a transiently failed send, one delay queue each
    /// (<c>{Queue}.retry.1</c>, ...). The number of entries + 1 is the maximum number of attempts.
    /// </summary>
    [MinLength(0)]
    public TimeSpan[] RetryDelays { get; set; } =
        [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(30), TimeSpan.FromMinutes(2)];

    /// <summary>AMQP heartbeat: how soon a silently dead connection is noticed (about twice this).</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan Heartbeat { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>The longest wait between attempts at the first connection (the backoff doubles up to it).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:05:00")]
    public TimeSpan MaxConnectRetryDelay { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// The urgent lane's work queue, <c>{Queue}.urgent</c>: rows with <c>priority = 'urgent'</c> are published
    /// here, and each consumer reads it with its own channel and handlers (<c>Consumer:Urgent*</c>).
    /// </summary>
    public string UrgentQueue => $"{Queue}.urgent";

    /// <summary>The work queues, one a lane: <see cref="Queue"/> (normal and bulk) and <see cref="UrgentQueue"/>.</summary>
    public IReadOnlyList<string> WorkQueues => [Queue, UrgentQueue];

    /// <summary>The dead-letter queue: <c>{Queue}.dead</c>.</summary>
    public string DeadLetterQueue => $"{Queue}.dead";

    /// <summary>The work queue's delay queue of retry number <paramref name="attempt"/> (1-based).</summary>
    public string RetryQueue(int attempt) => RetryQueue(Queue, attempt);

    /// <summary>
    /// The delay queue of retry number <paramref name="attempt"/> (1-based) of one lane's work queue: a retry
    /// returns to the lane it came from (<c>{Queue}.retry.N</c>, <c>{Queue}.urgent.retry.N</c>).
    /// </summary>
    public static string RetryQueue(string workQueue, int attempt) => $"{workQueue}.retry.{attempt}";

    private const string NamePattern = "^[A-Za-z0-9_.:-]{1,200}$";
}
