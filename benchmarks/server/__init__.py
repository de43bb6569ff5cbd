"""The web server: start-up, and many games at once over HTTP and WebSockets."""
