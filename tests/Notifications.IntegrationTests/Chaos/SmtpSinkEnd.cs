using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>The email rows' receiving end: the run's smtp-sink, counted by its dump files (per <c>X-Notification-Id</c>).</summary>
internal sealed class SmtpSinkEnd(SmtpSink sink) : IReceivingEnd
{
    public string Name => "SMTP sink";

    public int MessageCount() => sink.MessageCount();

    public IReadOnlyDictionary<long, int> CountByNotificationId() => sink.CountByNotificationId();

    public Task StopAsync() => sink.StopAsync();

    public Task StartAgainAsync() => sink.RestartAsync();

    public IReadOnlyList<string> Violations() => [];
}
