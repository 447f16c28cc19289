using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Sending;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Notifications.Shared.Unsubscribe;
using Npgsql;
using Priority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>The suppression table and the notifications of the suppression tests, as the test database and the SMTP server hold them.</summary>
internal static class SuppressionProbe
{
    /// <summary>The tests' token key (32 random bytes of this run, base64), named as an operator would name it.</summary>
    public static readonly string Key = Convert.ToBase64String(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));

    private static readonly NpgsqlDataSource DataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);

    /// <summary>The store as any other process (the admin tool, another consumer) would write with it.</summary>
    public static ISuppressionStore Store() => new PostgresSuppressionStore(DataSource, new DatabaseOptions
    {
        Provider = DatabaseProvider.Postgres,
        ConnectionString = TestServices.PostgresConnectionString,
        Schema = TestDatabase.Schema,
    });

    /// <summary>The key ring as the consumer and the unsubscribe process both get it.</summary>
    public static (string Key, string? Value)[] KeySettings => [("Unsubscribe:Keys:2026-05", Key)];

    /// <summary>The consumer settings that turn the List-Unsubscribe headers (mailto and the https one-click link) on.</summary>
    public static (string Key, string? Value)[] UnsubscribeSettings =>
    [
        ("Unsubscribe:UrlTemplate", "https://mail.example.test/unsubscribe?token={token}"),
        ("Unsubscribe:Mailto", "unsubscribe@example.test"),
        .. KeySettings,
    ];

    /// <summary>Tokens of <see cref="Key"/>, as the consumer makes them.</summary>
    public static UnsubscribeToken Tokens()
    {
        var options = new UnsubscribeKeyOptions();
        options.Keys["2026-05"] = Key;
        return new UnsubscribeToken(options, TimeProvider.System);
    }

    /// <summary>A token of the first, readable format, as a consumer before the upgrade made it with <paramref name="signingKey"/>.</summary>
    public static string LegacyToken(string signingKey, long id, string address)
    {
        byte[] payload = System.Text.Encoding.UTF8.GetBytes(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{id}\n{address}"));
        byte[] mac = System.Security.Cryptography.HMACSHA256.HashData(System.Text.Encoding.UTF8.GetBytes(signingKey), (byte[])[.. "unsubscribe.v1\n"u8, .. payload]);
        return System.Buffers.Text.Base64Url.EncodeToString(payload) + "." + System.Buffers.Text.Base64Url.EncodeToString(mac);
    }

    /// <summary>The one-click POST of RFC 8058 §3.2 (what the page's button sends too) to <c>/unsubscribe?token=…</c>.</summary>
    public static Task<HttpResponseMessage> PostOneClickAsync(HttpClient http, string token, Uri? server = null)
    {
        string path = $"/unsubscribe?token={Uri.EscapeDataString(token)}";
        return http.PostAsync(server is null ? new Uri(path, UriKind.Relative) : new Uri(server, path),
            new FormUrlEncodedContent([new KeyValuePair<string, string>("List-Unsubscribe", "One-Click")]));
    }

    public static Task<long> EnqueueAsync(string recipient, Priority priority = Priority.Normal) =>
        TestDatabase.EnqueueAsync(new NewNotification(recipient, $"To {recipient}", "Hello.") { Priority = priority });

    /// <summary>The rows of the table, removed ones too: key, reason, scope, detail, removed.</summary>
    public static async Task<List<(string Address, string Reason, string Scope, string? Detail, bool Removed)>> RowsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<(string, string, string, string?, bool)>(
            $"SELECT address, reason, scope, detail, removed_at IS NOT NULL FROM {TestDatabase.Schema}.suppression ORDER BY address")).AsList();
    }

    /// <summary>The dump file of notification <paramref name="id"/> at the sink, read back.</summary>
    public static SinkDump Dump(SmtpSink sink, long id) =>
        sink.MessageFiles().Select(SinkDump.Read).Single(d => d.Headers.TryGetValue("X-Notification-Id", out var v) && v == id.ToString(System.Globalization.CultureInfo.InvariantCulture));
}
