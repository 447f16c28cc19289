using System.Globalization;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.Harness;

/// <summary>
/// Where the receiver process on a port answers (127.0.0.1, TLS): webhooks on any path under <c>/hooks</c>; push with FCM
/// and its token endpoint on the port and APNs (h2 only) on the next one; the counts on the first.
/// </summary>
internal static class ReceiverUrls
{
    public static Uri Base(int port) => new(string.Create(CultureInfo.InvariantCulture, $"https://127.0.0.1:{port}/"));

    public static Uri Webhook(int port, string endpoint) => new(Base(port), $"hooks/{endpoint}");

    public static Uri Fcm(int port) => Base(port);

    public static Uri Token(int port) => new(Base(port), "token");

    public static Uri Apns(int port) => Base(port + 1);

    public static Uri Counts(int port) => new(Base(port), ReceiverHost.CountsPath.TrimStart('/'));

    public static Uri ArrivalCounts(int port) => new(Base(port), ReceiverHost.ArrivalCountsPath.TrimStart('/'));

    public static Uri Arrivals(int port) => new(Base(port), ReceiverHost.ArrivalsPath.TrimStart('/'));
}
