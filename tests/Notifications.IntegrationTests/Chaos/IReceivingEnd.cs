namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// Where a fault-matrix run counts what was delivered (the oracle's "received"): the SMTP sink for email rows, the
/// Standard Webhooks receiver for webhook rows. Scenarios stop it, start it again and read its counts mid-run.
/// </summary>
internal interface IReceivingEnd
{
    /// <summary>What it is, for notes ("SMTP sink", "webhook receiver").</summary>
    string Name { get; }

    /// <summary>Deliveries it accepted so far, copies included.</summary>
    int MessageCount();

    /// <summary>Accepted copies per notification id.</summary>
    IReadOnlyDictionary<long, int> CountByNotificationId();

    /// <summary>Stops it: connections refused, those in hand cut.</summary>
    Task StopAsync();

    /// <summary>Starts it again where the consumers expect it, answering normally.</summary>
    Task StartAgainAsync();

    /// <summary>Broken promises only it can see (a request whose signature did not verify): each fails the verdict.</summary>
    IReadOnlyList<string> Violations();
}
