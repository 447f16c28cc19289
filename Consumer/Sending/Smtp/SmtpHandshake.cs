using System.Text;
using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Sending.Smtp;

/// <summary>
/// Opens an SMTP session on a fresh connection: greeting, EHLO (HELO when EHLO is refused), STARTTLS and
/// AUTH as configured. Every failure here is <see cref="SmtpFailureKind.Transient"/>: it is the server's or
/// the configuration's fault, never the message's, so no message is rejected for it.
/// </summary>
internal static class SmtpHandshake
{
    public static async Task<SmtpExtensions> RunAsync(
        SmtpConnection connection, SmtpOptions options, ILogger logger, CancellationToken cancellationToken)
    {
        Expect(await connection.ReadReplyAsync(keepText: true, cancellationToken), 220, "Greeting");
        SmtpExtensions extensions = await HelloAsync(connection, options.HeloName, cancellationToken);

        bool wantTls = options.Security is SmtpSecurity.StartTls or SmtpSecurity.StartTlsWhenAvailable;
        if (wantTls && extensions.StartTls)
        {
            Expect(await CommandAsync(connection, "STARTTLS", cancellationToken), 220, "STARTTLS");
            await connection.AuthenticateTlsAsync(options.Host, cancellationToken);

            // RFC 3207 4.2: forget what the server said before TLS and ask again.
            extensions = await HelloAsync(connection, options.HeloName, cancellationToken);
        }
        else if (options.Security == SmtpSecurity.StartTls)
        {
            throw Fail(null, "The server does not offer STARTTLS and Smtp:Security is StartTls.");
        }
        else if (wantTls)
        {
            SendingLog.StartTlsNotOffered(logger, options.Host, options.Port);
        }

        if (!string.IsNullOrEmpty(options.Username))
        {
            await AuthenticateAsync(connection, options, extensions, cancellationToken);
        }

        return extensions;
    }

    private static async Task<SmtpExtensions> HelloAsync(
        SmtpConnection connection, string heloName, CancellationToken cancellationToken)
    {
        SmtpReply ehlo = await CommandAsync(connection, "EHLO " + heloName, cancellationToken);
        if (ehlo.Code == 250)
        {
            return SmtpExtensions.Parse(ehlo.Text);
        }

        // A 5xx to EHLO is a server that predates ESMTP (RFC 5321 3.2); anything else is a real refusal.
        if (ehlo.Code < 500)
        {
            throw Fail(ehlo, "EHLO");
        }

        Expect(await CommandAsync(connection, "HELO " + heloName, cancellationToken), 250, "HELO");
        return SmtpExtensions.None;
    }

    private static async Task AuthenticateAsync(
        SmtpConnection connection, SmtpOptions options, SmtpExtensions extensions, CancellationToken cancellationToken)
    {
        if (!connection.IsEncrypted && !options.AllowAuthWithoutTls)
        {
            throw Fail(null, "Refusing to send SMTP credentials over an unencrypted connection "
                + "(the server offered no STARTTLS; set Smtp:AllowAuthWithoutTls to allow it).");
        }

        string user = options.Username!;
        string password = options.Password ?? "";
        if (extensions.AuthPlain)
        {
            // RFC 4616: authorization identity (empty), NUL, user, NUL, password.
            string response = Base64($"\0{user}\0{password}");
            Expect(await CommandAsync(connection, "AUTH PLAIN " + response, cancellationToken), 235, "AUTH PLAIN");
            return;
        }

        if (!extensions.AuthLogin)
        {
            throw Fail(null, "The server offers neither AUTH PLAIN nor AUTH LOGIN.");
        }

        Expect(await CommandAsync(connection, "AUTH LOGIN", cancellationToken), 334, "AUTH LOGIN");
        Expect(await CommandAsync(connection, Base64(user), cancellationToken), 334, "AUTH LOGIN user name");
        Expect(await CommandAsync(connection, Base64(password), cancellationToken), 235, "AUTH LOGIN password");
    }

    private static async Task<SmtpReply> CommandAsync(
        SmtpConnection connection, string command, CancellationToken cancellationToken)
    {
        await connection.WriteAsync(Encoding.UTF8.GetBytes(command + "\r\n"), cancellationToken);
        return await connection.ReadReplyAsync(keepText: true, cancellationToken);
    }

    private static void Expect(SmtpReply reply, int code, string step)
    {
        if (reply.Code != code)
        {
            throw Fail(reply, step);
        }
    }

    private static SmtpSendException Fail(SmtpReply? reply, string what) =>
        reply is { } r
            ? new SmtpSendException(SmtpFailureKind.Transient, r.Code, $"{what}: {r}")
            : new SmtpSendException(SmtpFailureKind.Transient, null, what);

    private static string Base64(string text) => Convert.ToBase64String(Encoding.UTF8.GetBytes(text));
}
