namespace Notifications.Consumer.Channels.Email;

/// <summary>How the SMTP connection is protected.</summary>
public enum SmtpSecurity
{
    /// <summary>Plain text, never TLS (a local relay or a test sink).</summary>
    None,

    /// <summary>STARTTLS when the server offers it, plain text otherwise (opportunistic).</summary>
    StartTlsWhenAvailable,

    /// <summary>STARTTLS, and fail when the server does not offer it (port 587).</summary>
    StartTls,

    /// <summary>TLS from the first byte (implicit TLS, port 465).</summary>
    SslOnConnect,
}
