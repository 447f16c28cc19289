using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using Dapper;
using MailKit.Net.Smtp;
using MailKit.Security;
using MimeKit;
using Notifications.Bounces.Smtp;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.UnitTests.Bounces;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>The bounce receiver's surroundings in a test: its settings, a sent notification, SMTP to it, and the rows it writes.</summary>
internal static class BounceProbe
{
    /// <summary>The receiver's bounce domain and key: those the corpus's return paths are signed with.</summary>
    public static readonly (string Key, string? Value)[] Settings =
    [
        ("Bounces:Domain", BounceCorpus.Domain),
        ("Bounces:Keys:0:Id", "k1"),
        ("Bounces:Keys:0:Secret", Convert.ToBase64String(Enumerable.Range(7, 32).Select(i => (byte)i).ToArray())),
    ];

    /// <summary>A notification as the pipeline leaves it once sent: inserted by the app, claimed, recorded sent <paramref name="minutesAgo"/> ago.</summary>
    public static async Task<long> SentAsync(TestDatabase database, int minutesAgo = 2)
    {
        long id = (await database.InsertAsync(1, "Your receipt"))[0];
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"""
            DELETE FROM {TestDatabase.Schema}.outbox WHERE id = @Id;
            INSERT INTO {TestDatabase.Schema}.delivery_log (notification_id, status, updated_at, created_at, attempts)
            VALUES (@Id, 'sent', now() - make_interval(mins => @Minutes), now() - make_interval(mins => @Minutes + 1), 1)
            """, new { Id = id, Minutes = minutesAgo });
        return id;
    }

    public static async Task<IPEndPoint> EndpointAsync(WorkerHost host) => await host.Get<BounceSmtpListener>().Bound;

    /// <summary>
    /// Sends <paramref name="message"/> over SMTP (MailKit) to <paramref name="recipient"/>, as a reporting MTA's daemon; with
    /// <paramref name="trust"/>, over STARTTLS trusting that certificate alone. Whether the session was encrypted.
    /// </summary>
    public static async Task<bool> SendAsync(IPEndPoint endpoint, byte[] message, string recipient, X509Certificate2? trust = null)
    {
        using var client = new SmtpClient();
        if (trust is not null)
        {
            client.ServerCertificateValidationCallback = (_, certificate, _, _) => certificate?.GetCertHashString() == trust.Thumbprint;
        }

        await client.ConnectAsync(endpoint.Address.ToString(), endpoint.Port, trust is null ? SecureSocketOptions.None : SecureSocketOptions.StartTls);
        var mime = await MimeMessage.LoadAsync(new MemoryStream(message));
        await client.SendAsync(mime, new MailboxAddress("", "mailer-daemon@mx1.example.net"), [new MailboxAddress("", recipient)]);
        bool secure = client.IsSecure;
        await client.DisconnectAsync(true);
        return secure;
    }

    /// <summary>
    /// A raw SMTP transaction over a socket (no SIZE declared, as a sender that ignores the extension does), the DATA lines
    /// written as given; the reply to the final dot.
    /// </summary>
    public static async Task<string> SendRawAsync(IPEndPoint endpoint, string recipient, IEnumerable<string> dataLines)
    {
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(endpoint);
        await using var stream = tcp.GetStream();
        using var reader = new StreamReader(stream, Encoding.ASCII);
        await using var writer = new StreamWriter(stream, Encoding.ASCII) { NewLine = "\r\n", AutoFlush = false };
        await ReplyAsync(reader);
        foreach (string command in (string[])["EHLO mx1.example.net", "MAIL FROM:<mailer-daemon@mx1.example.net>", $"RCPT TO:<{recipient}>", "DATA"])
        {
            await writer.WriteLineAsync(command);
            await writer.FlushAsync();
            await ReplyAsync(reader);
        }

        try
        {
            foreach (string line in dataLines)
            {
                await writer.WriteLineAsync(line);
            }

            await writer.WriteLineAsync(".");
            await writer.FlushAsync();
        }
        catch (IOException)
        {
            // The server may answer and close before the whole body is written: its answer is read below.
        }

        return await ReplyAsync(reader);
    }

    public static async Task<List<(string Outcome, string Recipient, string? Status)>> OutcomesAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<(string, string, string?)>(
            $"SELECT outcome, recipient, status FROM {TestDatabase.Schema}.notification_outcome WHERE notification_id = @Id ORDER BY outcome, recipient", new { Id = id })).AsList();
    }

    public static async Task<(string State, string? Detail)> StatusAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleAsync<(string, string?)>($"SELECT state, detail FROM {TestDatabase.Schema}.notification_status(@Id)", new { Id = id });
    }

    // A reply, its continuation lines included ("250-..."), as one string.
    private static async Task<string> ReplyAsync(StreamReader reader)
    {
        var reply = new StringBuilder();
        while (await reader.ReadLineAsync() is { } line)
        {
            reply.AppendLine(line);
            if (line.Length < 4 || line[3] != '-')
            {
                break;
            }
        }

        return reply.ToString().TrimEnd();
    }
}
