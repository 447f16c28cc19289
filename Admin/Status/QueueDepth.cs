namespace Notifications.Admin.Status;

/// <summary>One queue as a passive declare saw it: ready messages and consumers, or missing (no worker declared it yet).</summary>
internal sealed record QueueDepth(string Name, long Ready, long Consumers, bool Missing);
