using System.ComponentModel.DataAnnotations;

namespace Notifications.Producer.FanOut;

/// <summary>The producer's fan-out stage (section <c>FanOut</c>; docs/fan-out.md, "Configuration").</summary>
public sealed class FanOutOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "FanOut";

    /// <summary>Subscribers per page: one transaction writes their deliveries, then they are published and confirmed.</summary>
    [Range(1, 50_000)]
    public int PageSize { get; set; } = 1000;

    /// <summary>
    /// How long a job stays this producer's without a word from it: each page renews it. A killed producer's job is resumed
    /// by another (or by it, restarted) this long after its last page, at the last confirmed page.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan LeaseTime { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// Jobs one producer works at once, each worker with its own AMQP channel: many small audiences (a subscriber each) go
    /// through side by side instead of one after the other; a topic is one job, a page at a time, whatever this is.
    /// </summary>
    [Range(1, 256)]
    public int Concurrency { get; set; } = 8;

    /// <summary>
    /// At most this many audience rows of one page (a subscriber) per claim are fanned out by the claim itself: their job and
    /// page written in its transaction, their deliveries published by the claiming lane right after the commit and the jobs
    /// ended, without the stage's lease and its two transactions. The rest (topics; subscribers beyond this) go to the stage.
    /// 0: every job goes to the stage.
    /// </summary>
    [Range(0, 10_000)]
    public int InClaim { get; set; } = 64;

    /// <summary>
    /// A row of channels <c>live</c> alone to a topic goes as one broadcast (docs/live.md#broadcasts-to-a-topic): the claim
    /// publishes it as one live notification, of which the consumer writes one row for every gateway node to send to its
    /// connections of the topic's subscribers. False: the stage fans it out, one live delivery per subscriber.
    /// </summary>
    public bool LiveBroadcast { get; set; } = true;

    /// <summary>How often an idle stage looks for jobs it was not woken for (other producers', expired leases).</summary>
    [Range(typeof(TimeSpan), "00:00:00.010", "00:10:00")]
    public TimeSpan PollInterval { get; set; } = TimeSpan.FromSeconds(1);
}
