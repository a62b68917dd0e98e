console.log("svc-agent");
