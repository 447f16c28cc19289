namespace Notifications.Shared.Data.FanOut;

/// <summary>The words of <c>fanout_job.state</c> and <c>audience_delivery.outcome</c> (the tables' checks).</summary>
public static class FanOutOutcomes
{
    /// <summary>A job still fanning out.</summary>
    public const string Running = "running";

    /// <summary>A job whose every page is confirmed (an empty topic's too: 0 deliveries).</summary>
    public const string Done = "done";

    /// <summary>A job whose subscriber or topic does not exist: nothing sent, the reason kept.</summary>
    public const string NoSuchAudience = "no_such_audience";

    /// <summary>A delivery handed to the broker: its id is in the delivery log as any notification's.</summary>
    public const string Published = "published";

    /// <summary>A contact point not sent to: its subscriber opted out of the category on its channel, or the default is off.</summary>
    public const string OptedOut = "opted_out";

    /// <summary>A subscriber with no live contact point of the job's channels.</summary>
    public const string NoContact = "no_contact";
}
