namespace Notifications.Shared.Data.Operations;

/// <summary>What a bulk job does with each dead letter it takes.</summary>
public static class AdminJobKinds
{
    /// <summary>Back to the work queue, attempts reset (as <c>admin dead-letters requeue</c>).</summary>
    public const string Requeue = "requeue";

    /// <summary>Deleted for good.</summary>
    public const string Purge = "purge";
}
